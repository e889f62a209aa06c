// Comparison, logical and bitwise kernels: equal, not_equal, greater, greater_equal, less,
// less_equal, logical_not/and/or/xor, bitwise_invert/and/or/xor/left_shift/right_shift.
#include <complex>
#include <type_traits>

#include "int_math.h"
#include "kernel_loops.h"

namespace arraycore::native {
namespace {

// Complex == compares both parts; any comparison with NaN is false (!= true).
struct Equal { template <class T> static bool apply(T a, T b) { return a == b; } };
struct NotEqual { template <class T> static bool apply(T a, T b) { return a != b; } };
struct Greater { template <class T> static bool apply(T a, T b) { return a > b; } };
struct GreaterEqual { template <class T> static bool apply(T a, T b) { return a >= b; } };
struct Less { template <class T> static bool apply(T a, T b) { return a < b; } };
struct LessEqual { template <class T> static bool apply(T a, T b) { return a <= b; } };

struct LogicalNot { static bool apply(bool a) { return !a; } };
struct LogicalAnd { static bool apply(bool a, bool b) { return a & b; } };
struct LogicalOr { static bool apply(bool a, bool b) { return a | b; } };
struct LogicalXor { static bool apply(bool a, bool b) { return a != b; } };

struct BitwiseInvert {
  template <class T> static T apply(T a) {
    if constexpr (std::is_same_v<T, bool>) return !a;
    else return T(~a);
  }
};
struct BitwiseAnd { template <class T> static T apply(T a, T b) { return T(a & b); } };
struct BitwiseOr { template <class T> static T apply(T a, T b) { return T(a | b); } };
struct BitwiseXor { template <class T> static T apply(T a, T b) { return T(a ^ b); } };
struct LeftShift { template <class T> static T apply(T a, T b) { return shift_left(a, b); } };
struct RightShift { template <class T> static T apply(T a, T b) { return shift_right(a, b); } };

}  // namespace

AC_REGISTER_KERNELS(compare_logical) {
  register_binary<Equal>("equal", AllTypes{});
  register_binary<NotEqual>("not_equal", AllTypes{});
  register_binary<Greater>("greater", RealTypes{});
  register_binary<GreaterEqual>("greater_equal", RealTypes{});
  register_binary<Less>("less", RealTypes{});
  register_binary<LessEqual>("less_equal", RealTypes{});
  register_unary<LogicalNot>("logical_not", BoolTypes{});
  register_binary<LogicalAnd>("logical_and", BoolTypes{});
  register_binary<LogicalOr>("logical_or", BoolTypes{});
  register_binary<LogicalXor>("logical_xor", BoolTypes{});
  register_unary<BitwiseInvert>("bitwise_invert", IntOrBoolTypes{});
  register_binary<BitwiseAnd>("bitwise_and", IntOrBoolTypes{});
  register_binary<BitwiseOr>("bitwise_or", IntOrBoolTypes{});
  register_binary<BitwiseXor>("bitwise_xor", IntOrBoolTypes{});
  register_binary<LeftShift>("bitwise_left_shift", IntTypes{});
  register_binary<RightShift>("bitwise_right_shift", IntTypes{});
}

}  // namespace arraycore::native
