// Randomized check of the vector quicksort (arraycore/native/src/kernels/vector_quicksort.h)
// against std::sort on the same keys, for every instruction set this build has (AVX2, AVX-512
// where the compiler targets it, and AVX-512 on emulated intrinsics wherever AVX2 is; Note
// [Sort ISA] in vector_sort.h), both key widths and every key codec (signed, unsigned, float;
// ascending and descending), in place and out of place, on lengths around the leaf and
// partition boundaries and on inputs full of duplicates, and with a serial SortRunner that
// claims 4 workers (the parallel split and task assignment).  It also drives the depth-limit
// fallback directly (quicksort with depth 0), which random inputs never reach.
//
// Build & run (tests/native/test_vector_sort.py does this), K = arraycore/native/src/kernels:
//   g++ -O2 -march=native -std=c++20 -I $K tests/native/vector_sort_check.cpp
//       $K/vector_sort.cpp $K/vector_sort_avx512.cpp $K/vector_sort_avx512_emulated.cpp
//       -o vector_sort_check && ./vector_sort_check
#include "vector_sort.h"

#ifdef __AVX2__
#include "vector_quicksort.h"  // the internals, for the depth-limit case
#include "vector_sort_avx512_emulated.h"
#include "vector_sort_lanes.h"
#include "vector_sort_lanes_avx512.h"
#ifdef __AVX512F__
#include "vector_sort_avx512_intrinsics.h"
#endif
#endif

#include <cstdio>
#include <functional>
#include <random>
#include <vector>

namespace an = arraycore::native;

namespace {

template <class U>
std::vector<U> make_input(std::mt19937_64& g, int64_t n, int kind) {
  constexpr U top = U(1) << (8 * sizeof(U) - 1);
  std::vector<U> v(static_cast<size_t>(n));
  for (auto& x : v) {
    switch (kind) {
      case 0: x = static_cast<U>(g()); break;                       // all bits random
      case 1: x = static_cast<U>(g() % 2); break;                   // two values
      case 2: x = static_cast<U>(g() % 100); break;                 // many duplicates
      case 3: x = 7; break;                                         // all equal
      case 4: x = (g() % 2) ? top : top - 1; break;                 // extremes
      default: x = static_cast<U>(0x3f800000u + g() % 5) + top * (g() % 2);  // +-small floats
    }
  }
  if (kind == 2 && n > 0) std::sort(v.begin(), v.begin() + static_cast<int64_t>(g() % n));
  return v;
}

// Runs the tasks one after another, but makes the sort split its work for 4 workers.
const an::SortRunner kSerialRunner{4, [](int64_t count, const std::function<void(int64_t)>& task) {
  for (int64_t i = count - 1; i >= 0; --i) task(i);  // any order must do
}};

const char* isa_name(an::SortIsa isa) {
  switch (isa) {
    case an::SortIsa::kAvx2: return "avx2";
    case an::SortIsa::kAvx512: return "avx512";
    case an::SortIsa::kAvx512Emulated: return "avx512-emulated";
    default: return "scalar";
  }
}

template <class U>
int check_width(std::mt19937_64& g, int trials, an::SortIsa isa) {
  using S = std::make_signed_t<U>;
  constexpr U top = U(1) << (8 * sizeof(U) - 1);
  int bad = 0;
  for (int t = 0; t < trials; ++t) {
    const bool large = t % 50 == 0;
    const int64_t n = large ? static_cast<int64_t>(131072 + g() % 300000)
                  : t < trials / 4 ? t % 300 : static_cast<int64_t>(g() % 20000);
    const an::SortRunner* runner = large && t % 100 == 0 ? &kSerialRunner : nullptr;
    an::KeyCodec<U> c;
    const int codec = static_cast<int>(g() % 6);
    c.float_mask = codec % 3 == 2 ? ~U(0) : U(0);
    c.xor_const = codec % 3 == 1 ? top : U(0);
    if (codec >= 3) c.xor_const = static_cast<U>(~c.xor_const);
    const std::vector<U> in = make_input<U>(g, n, static_cast<int>(g() % 6));
    std::vector<U> want = in;
    std::sort(want.begin(), want.end(),
              [&](U a, U b) { return static_cast<S>(c.encode(a)) < static_cast<S>(c.encode(b)); });
    std::vector<U> got(in.size());
    if (g() % 4 == 0) {
      got = in;
      an::vector_sort(got.data(), n, got.data(), c, runner, isa);
    } else {
      an::vector_sort(in.data(), n, got.data(), c, runner, isa);
    }
    if (got != want && bad++ < 5)
      std::printf("FAIL: %s, %zu-byte keys, n=%lld, codec %d, runner %d\n", isa_name(isa),
                  sizeof(U), static_cast<long long>(n), codec, runner != nullptr);
  }
  return bad;
}

#ifdef __AVX2__
// quicksort with depth 0 hands the range to std::sort and decodes it.
template <class U, template <class> class LanesOf>
int check_depth_limit(std::mt19937_64& g) {
  using K = std::conditional_t<sizeof(U) == 4, int32_t, int64_t>;
  using L = LanesOf<K>;
  an::KeyCodec<U> c;
  c.float_mask = ~U(0);
  std::vector<U> in = make_input<U>(g, 5000, 0), want = in;
  std::sort(want.begin(), want.end(), [&](U a, U b) {
    return static_cast<K>(c.encode(a)) < static_cast<K>(c.encode(b));
  });
  std::vector<U> keys(in.size());
  for (size_t i = 0; i < in.size(); ++i) keys[i] = c.encode(in[i]);
  an::vsort::quicksort<L>(reinterpret_cast<K*>(keys.data()), 5000, 0, an::vsort::Codec<L>(c));
  if (keys != want) {
    std::printf("FAIL: depth-limit fallback, %zu-byte keys, %d lanes\n", sizeof(U), L::kCount);
    return 1;
  }
  return 0;
}
#endif

}  // namespace

template <class K>
using EmulatedLanes512 = an::vsort::Lanes512<an::vsort::EmulatedAvx512Intrinsics, K>;
#ifdef __AVX512F__
template <class K>
using Lanes512 = an::vsort::Lanes512<an::vsort::Avx512Intrinsics, K>;
#endif

int main() {
  std::mt19937_64 g(20261121);
  int bad = 0;
  for (an::SortIsa isa : {an::SortIsa::kAvx2, an::SortIsa::kAvx512, an::SortIsa::kAvx512Emulated}) {
    if (!an::sort_isa_built(isa)) {
      std::printf("%s: not built\n", isa_name(isa));
      continue;
    }
    // The emulation is slow: fewer trials (its lanes are the real AVX-512 code's).
    const int trials = isa == an::SortIsa::kAvx512Emulated ? 1000 : 4000;
    bad += check_width<uint32_t>(g, trials, isa) + check_width<uint64_t>(g, trials, isa);
    std::printf("%s: checked\n", isa_name(isa));
  }
#ifdef __AVX2__
  bad += check_depth_limit<uint32_t, an::vsort::Lanes>(g) +
         check_depth_limit<uint64_t, an::vsort::Lanes>(g);
  bad += check_depth_limit<uint32_t, EmulatedLanes512>(g) +
         check_depth_limit<uint64_t, EmulatedLanes512>(g);
#ifdef __AVX512F__
  bad += check_depth_limit<uint32_t, Lanes512>(g) + check_depth_limit<uint64_t, Lanes512>(g);
#endif
#else
  std::printf("no AVX2: vector_sort is not built (the engine uses its radix sort)\n");
#endif
  std::printf("%s (%d failures)\n", bad ? "SOME CHECKS FAILED" : "ALL OK", bad);
  return bad ? 1 : 0;
}
