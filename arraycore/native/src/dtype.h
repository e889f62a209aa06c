// L0: the dtypes the engine knows, their C++ types, and compile-time type lists.
//
// The enum order is the ABI between the engine and Python (arraycore/_core/dtypes.py uses the
// same codes). New dtypes (float16, bfloat16) are appended at the end and added to the type
// lists that should instantiate kernels for them; nothing else has to change.
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace arraycore::native {

enum class DType : uint8_t {
  Bool = 0,
  Int8,
  Int16,
  Int32,
  Int64,
  UInt8,
  UInt16,
  UInt32,
  UInt64,
  Float32,
  Float64,
  Complex64,
  Complex128,
};
constexpr int kNumDTypes = 13;

using c64 = std::complex<float>;
using c128 = std::complex<double>;

size_t itemsize(DType dt);
const char* dtype_name(DType dt);
inline int dtype_index(DType dt) { return static_cast<int>(dt); }

// C++ type -> DType.
template <class T> struct DTypeOf;
#define AC_DTYPE_OF(T, D) \
  template <> struct DTypeOf<T> { static constexpr DType value = DType::D; };
AC_DTYPE_OF(bool, Bool)
AC_DTYPE_OF(int8_t, Int8)
AC_DTYPE_OF(int16_t, Int16)
AC_DTYPE_OF(int32_t, Int32)
AC_DTYPE_OF(int64_t, Int64)
AC_DTYPE_OF(uint8_t, UInt8)
AC_DTYPE_OF(uint16_t, UInt16)
AC_DTYPE_OF(uint32_t, UInt32)
AC_DTYPE_OF(uint64_t, UInt64)
AC_DTYPE_OF(float, Float32)
AC_DTYPE_OF(double, Float64)
AC_DTYPE_OF(c64, Complex64)
AC_DTYPE_OF(c128, Complex128)
#undef AC_DTYPE_OF
template <class T> constexpr DType dtype_of = DTypeOf<T>::value;

template <class T> struct is_complex : std::false_type {};
template <class T> struct is_complex<std::complex<T>> : std::true_type {};
template <class T> constexpr bool is_complex_v = is_complex<T>::value;

// Real type underlying T (float for complex<float>, T otherwise).
template <class T> struct real_of { using type = T; };
template <class T> struct real_of<std::complex<T>> { using type = T; };
template <class T> using real_t = typename real_of<T>::type;

// Type lists used to instantiate kernels only for the dtypes an op accepts, so a float-only
// op compiles 2-4 loops, not 13 (see docs/architecture.md, "Kernel registration").
template <class... Ts> struct TypeList {};
template <class... A, class... B>
constexpr TypeList<A..., B...> operator+(TypeList<A...>, TypeList<B...>) { return {}; }

using BoolTypes = TypeList<bool>;
using SignedIntTypes = TypeList<int8_t, int16_t, int32_t, int64_t>;
using UnsignedIntTypes = TypeList<uint8_t, uint16_t, uint32_t, uint64_t>;
using IntTypes = decltype(SignedIntTypes{} + UnsignedIntTypes{});
using RealFloatTypes = TypeList<float, double>;
using ComplexTypes = TypeList<c64, c128>;
using FloatTypes = decltype(RealFloatTypes{} + ComplexTypes{});
using RealTypes = decltype(IntTypes{} + RealFloatTypes{});
using NumericTypes = decltype(IntTypes{} + FloatTypes{});
using IntOrBoolTypes = decltype(BoolTypes{} + IntTypes{});
using RealOrBoolTypes = decltype(BoolTypes{} + RealTypes{});
using AllTypes = decltype(BoolTypes{} + NumericTypes{});

// Calls f(T{}) for the C++ type of a runtime dtype.  Used outside hot loops only.
template <class F> decltype(auto) visit_dtype(DType dt, F&& f) {
  switch (dt) {
    case DType::Bool: return f(bool{});
    case DType::Int8: return f(int8_t{});
    case DType::Int16: return f(int16_t{});
    case DType::Int32: return f(int32_t{});
    case DType::Int64: return f(int64_t{});
    case DType::UInt8: return f(uint8_t{});
    case DType::UInt16: return f(uint16_t{});
    case DType::UInt32: return f(uint32_t{});
    case DType::UInt64: return f(uint64_t{});
    case DType::Float32: return f(float{});
    case DType::Float64: return f(double{});
    case DType::Complex64: return f(c64{});
    case DType::Complex128: return f(c128{});
  }
  return f(bool{});  // unreachable: every enumerator is handled above
}

}  // namespace arraycore::native
