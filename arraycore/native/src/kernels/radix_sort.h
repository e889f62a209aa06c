// L0: the stable LSD radix sort shared by sort, argsort and the complex order (see
// Note [Radix sort] in sort.cpp).
#pragma once

#include <cstdint>
#include <cstring>

namespace arraycore::native {

// (key, index) items for keys wider than 32 bits.
struct Pair64 {
  uint64_t k;
  int64_t i;
};

namespace radix_detail {

// Short lines use 8-bit digits: with 11-bit digits clearing and prefix-summing the 2048-bucket
// histograms would cost more than the passes themselves.
// Long lines go back to 8-bit digits: 2048 scatter streams into arrays larger than the L2
// cache miss the TLB and the shared L3 on every write (measured: a 1e6-element pass took 9 ms
// with 11-bit digits on a loaded machine, against 0.3 ms per 1e5).
constexpr int64_t kWideDigits = 1 << 16;
constexpr int64_t kNarrowAgain = 1 << 18;

// Stable LSD radix sort of n items produced by src(i) into dst, by key_of(item) (BITS wide),
// with R-bit digits.  tmp: scratch for n items.  Needs n < 2^32.
template <int BITS, int R, class Item, class SrcRef, class KeyOfRef>
void radix_sort_r(int64_t n, SrcRef&& src_ref, Item* dst, Item* tmp, KeyOfRef&& key_of_ref) {
  // Local copies: through the references the compiler must assume the output stores may
  // overwrite the captured pointers and reloads them for every element.
  const auto src = src_ref;
  const auto key_of = key_of_ref;
  constexpr int NB = 1 << R;
  constexpr int P = (BITS + R - 1) / R;
  uint32_t hist[P][NB];
  std::memset(hist, 0, sizeof hist);
  for (int64_t i = 0; i < n; ++i) {
    auto k = key_of(src(i));
    for (int p = 0; p < P; ++p) ++hist[p][(k >> (p * R)) & (NB - 1)];
  }
  int active[P];
  int na = 0;
  auto k0 = key_of(src(0));
  for (int p = 0; p < P; ++p)
    if (hist[p][(k0 >> (p * R)) & (NB - 1)] != static_cast<uint32_t>(n)) active[na++] = p;
  if (na == 0) {
    for (int64_t i = 0; i < n; ++i) dst[i] = src(i);
    return;
  }
  const Item* in = nullptr;
  for (int j = 0; j < na; ++j) {
    const int p = active[j];
    const int sh = p * R;
    Item* out = ((na - 1 - j) % 2 == 0) ? dst : tmp;
    uint32_t off[NB];
    uint32_t s = 0;
    for (int b = 0; b < NB; ++b) { off[b] = s; s += hist[p][b]; }
    if (j == 0) {
      for (int64_t i = 0; i < n; ++i) {
        Item it = src(i);
        out[off[(key_of(it) >> sh) & (NB - 1)]++] = it;
      }
    } else {
      for (int64_t i = 0; i < n; ++i) {
        Item it = in[i];
        out[off[(key_of(it) >> sh) & (NB - 1)]++] = it;
      }
    }
    in = out;
  }
}

}  // namespace radix_detail

// Stable LSD radix sort of the n items src(0) ... src(n - 1) into dst by key_of(item) (BITS
// wide; 8- or 11-bit digits by length).  tmp: scratch for n items.  Needs n < 2^32.
template <int BITS, class Item, class Src, class KeyOf>
void radix_sort(int64_t n, Src&& src, Item* dst, Item* tmp, KeyOf&& key_of) {
  using namespace radix_detail;
  if (BITS <= 8 || n < kWideDigits || n >= kNarrowAgain)
    radix_sort_r<BITS, 8, Item>(n, src, dst, tmp, key_of);
  else
    radix_sort_r<BITS, 11, Item>(n, src, dst, tmp, key_of);
}

}  // namespace arraycore::native

