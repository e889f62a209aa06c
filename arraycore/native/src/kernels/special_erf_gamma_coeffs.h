// Polynomial coefficients of the erf_gamma special-function kernels (special_erf_gamma*.cpp).
//
// Every table is a polynomial in a variable t in [-1, 1], highest degree first (polevl
// order), obtained by Chebyshev interpolation in 40-digit arithmetic (mpmath) and converted
// to the monomial basis, then rounded; regenerate with tools/gen_special_erf_gamma_coeffs.py
// (the comment of each table gives its max relative error, evaluated in the working
// precision on 2000 points of [-1, 1]).
//
//   kErfSmall*:  erf(x)/x,          x^2 = (t + 1)/2 in [0, 1]
//   kErfMid*:    erf(x)/x,          x^2 = 4.5 (t + 1) in [0, 9]
//   kErfcx*:     (1 + 2x) erfcx(x), x = K (1 + t)/(1 - t), K = 3.75: one expansion for
//                all x >= 0 (the variable of Shepherd & Laframboise, Math. Comp. 36 (1981)
//                249-253, "Chebyshev approximation of (1+2x) exp(x^2) erfc x in 0 <= x < inf")
//   kLgamma23*:  lgamma(2 + p)/p,   p = 0.75 t + 0.25 in [-0.5, 1]
//   kPsiRootD:   psi(x)/(x - x0),   x - x0 = 0.3 t, x0 the positive zero of psi
#pragma once

namespace arraycore::native::special::erf_gamma {

// Rational and float-result fits, lowest-degree coefficient last
// (tools/gen_special_rational_coeffs.py):
// erfinv(x)/x = P_k(w - c_k), w = -ln(1 - x^2), pieces w < 5 (c = 0) and w >= 5 (c = 11): max rel. errors 3.0e-08, 5.0e-08; evaluated in float: 1.54 ulp
inline constexpr float kErfinvF[2][11] = {
    {0x1.a375060000000p-32f, -0x1.3bd63e0000000p-26f, 0x1.5b80a80000000p-22f, -0x1.5aed480000000p-19f, 0x1.9ddc6c0000000p-18f, 0x1.4d048c0000000p-15f, -0x1.faddde0000000p-14f, -0x1.32a5e80000000p-9f, 0x1.7a7f180000000p-7f, 0x1.db29e00000000p-3f, 0x1.c5bf8a0000000p-1f},
    {0x1.09495e0000000p-39f, -0x1.0870860000000p-35f, 0x1.b30fe20000000p-33f, -0x1.cff1480000000p-31f, -0x1.6c9f180000000p-28f, 0x1.3f65840000000p-22f, -0x1.cc7b720000000p-18f, 0x1.27c22e0000000p-13f, -0x1.b5ccb40000000p-9f, 0x1.3693e00000000p-3f, 0x1.9350260000000p+1f}};
// erf(x)/x = P(x^2 - 1.125), |x| < 1.5: degree 8, max rel. error 8.1e-10; erf_f in float: 1.59 ulp on [0, 3.92]
inline constexpr float kErfF1[] = {0x1.49e42c0000000p-21f, -0x1.81637e0000000p-18f, 0x1.80f29e0000000p-15f, -0x1.5de36c0000000p-12f, 0x1.14fda40000000p-9f, -0x1.76d7ca0000000p-7f, 0x1.aa9b780000000p-5f, -0x1.9a0f4a0000000p-3f, 0x1.a2385a0000000p-1f};
// erfc(x) = Q(x - 2.71), x in [1.5, 3.92]: degree 12, max abs. error 7.0e-09
inline constexpr float kErfcF2[] = {0x1.69cba80000000p-18f, 0x1.b9bbd20000000p-20f, -0x1.16a8ee0000000p-14f, 0x1.ed30f20000000p-14f, 0x1.0a8d9c0000000p-14f, -0x1.697c5e0000000p-11f, 0x1.e23d660000000p-10f, -0x1.9f2a020000000p-9f, 0x1.f8c4800000000p-9f, -0x1.b464a40000000p-9f, 0x1.03125e0000000p-9f, -0x1.7e5d7e0000000p-11f, 0x1.0a00180000000p-13f};
// (z + 3) erfcx(z) = G(t), t = (z - 3)/(z + 3), z in [0, 10.5]: degree 9, max rel. error 2.4e-09; erfc_f with exp rounded correctly: 1.31 ulp.
// G's terms of degree 3 and up, divided by t^3, in float (kErfcxGF), the rest in double (kErfcxGD)
inline constexpr float kErfcxGF[] = {-0x1.5338000000000p-12f, -0x1.f6f7c80000000p-12f, 0x1.93d6760000000p-9f, -0x1.41fd040000000p-10f, -0x1.b7c14c0000000p-6f, 0x1.e997a60000000p-4f, -0x1.3deac60000000p-2f};
// the terms of G below degree 3
inline constexpr double kErfcxGD[] = {0x1.2e3266a5697dap-1, -0x1.c44c485be3d3ep-1, 0x1.12f21de17a35ep+0};
// ndtri's three pieces (P; see ndtri_v): max rel. errors 7.7e-17, 1.7e-17, 3.4e-17
inline constexpr double kNdtriP[3][8] = {
    {0x1.022a24738093bp-6, 0x1.297ab0714100ep+0, 0x1.9e223b2de8fe9p+3, 0x1.873da790232c8p+5, 0x1.43cb38147033dp+6, 0x1.0159883c9129cp+6, 0x1.80d0f242c38bep+4, 0x1.b18d91e9eef75p+1},
    {0x1.0435be5c44e23p+2, 0x1.18a95b25e49a5p+5, 0x1.b72e41f93b84fp+6, 0x1.5368f8d97417ap+7, 0x1.1eab3688a5e67p+7, 0x1.0abd0f7d5e553p+6, 0x1.f7bf6a0a5777bp+3, 0x1.6c665fde9526ap+0},
    {0x1.1214a71e0f927p+9, 0x1.9f34429316d6dp+11, 0x1.ab2fa49d927edp+12, 0x1.995ffa8e9666dp+12, 0x1.9aa471b13d7b1p+11, 0x1.bb82e5ffc8938p+9, 0x1.e73cc33795b75p+6, 0x1.aa1b1c13ee527p+2}};
// Q of the same
inline constexpr double kNdtriQ[3][8] = {
    {0x1.0cda826aec390p-5, 0x1.ff3ea7f66531cp-1, 0x1.e3fb9c3662d8ap+2, 0x1.6974674505091p+4, 0x1.fcc477a288d61p+4, 0x1.66c91e57929fap+4, 0x1.e92f7f21ae549p+2, 0x1.0000000000000p+0},
    {0x1.725b0e6efc99bp-18, 0x1.b0dbfd689f190p-1, 0x1.b9b08fc9e04cdp+2, 0x1.3c800c17b6c9fp+4, 0x1.b19a0826237cap+4, 0x1.35fd9533a1c7ap+4, 0x1.beba62972fa8fp+2, 0x1.0000000000000p+0},
    {0x1.722781571f4e1p-18, 0x1.161a5f540b49cp+4, 0x1.95b81a6d6b89fp+6, 0x1.84372fa2cf1b5p+7, 0x1.496a8b74537f5p+7, 0x1.1023fcccad7e5p+6, 0x1.abe19f968428dp+3, 0x1.0000000000000p+0}};

// kErfSmallD: degree 14 in t, max rel. error 1.6e-16 on [-1, 1]
inline constexpr double kErfSmallD[] = {
    0x1.3c01fd3a74542p-56, -0x1.29cd9bf60c1b4p-51, 0x1.04ff16c13c042p-46,
    -0x1.aad6d13a7f7b0p-42, 0x1.428f34066afd3p-37, -0x1.bf8e5ae42ab27p-33,
    0x1.1ad5edc8ea554p-28, -0x1.429e938badfd7p-24, 0x1.486638bca9fa1p-20,
    -0x1.263991b81d64ap-16, 0x1.c82aa249df428p-13, -0x1.2b902b7b2f224p-9,
    0x1.454368017b042p-6, -0x1.1fd16292151fdp-3, 0x1.ee51eb23cb7eap-1};

// kErfMidD: degree 22 in t, max rel. error 2.6e-16 on [-1, 1]
inline constexpr double kErfMidD[] = {
    0x1.7dce96f43ac86p-34, -0x1.f550267600f9ep-32, 0x1.ee673bc4a8908p-30,
    -0x1.23248fb73c3dbp-27, 0x1.516ba37c79946p-25, -0x1.6a736d9e77dc6p-23,
    0x1.70bf866ccfa11p-21, -0x1.63e78f65bc2c5p-19, 0x1.445ad9da7a996p-17,
    -0x1.16277a97f0ff3p-15, 0x1.bf5fe99b55444p-14, -0x1.50146a263d7e5p-12,
    0x1.d5b34942394acp-11, -0x1.2fec07c9e821fp-9, 0x1.6a6e244297beap-8,
    -0x1.8c51be36a6fc6p-7, 0x1.8b9a5ddd20c64p-6, -0x1.6755cf5caf789p-5,
    0x1.291aa45962c29p-4, -0x1.c2f218917ac1bp-4, 0x1.428da06b81998p-3,
    -0x1.d4943852775dep-3, 0x1.e16a3caff3c6ep-2};


// kErfcxD: degree 26 in t, max rel. error 3.1e-16 on [-1, 1]
inline constexpr double kErfcxD[] = {
    -0x1.5129d954e2bbfp-34, -0x1.4a9f17de05cb1p-35, 0x1.fbb13569c48bcp-31,
    0x1.2c33ebf88348cp-31, -0x1.c60492c65c488p-28, -0x1.2db22103e39d2p-28,
    0x1.60d2a86790021p-25, 0x1.a15251a93b51cp-26, -0x1.18861c22d08a2p-22,
    -0x1.f47cc3f3e6641p-25, 0x1.d6b54b85aaa25p-20, -0x1.0525a3b8c42dap-20,
    -0x1.800892b72d256p-17, 0x1.778a2b0123c46p-16, 0x1.b14449e36dfd0p-15,
    -0x1.303f9d9e6c0fcp-12, 0x1.33fb24531619cp-12, 0x1.cc3a0e22f1e70p-10,
    -0x1.3f603c3390a8cp-7, 0x1.d0b0037dcada7p-6, -0x1.e0d0fa6e016bdp-5,
    0x1.7a14188a99ba8p-4, -0x1.bda9309a2886ap-4, 0x1.510169d0967ffp-4,
    0x1.d5f2948159d0ep-9, -0x1.1f367683f89a7p-3, 0x1.3ccda0b5d5dc2p+0};
// kErfcxD22: the same to degree 22, max rel. error 3.4e-16 on [-1, 1] (for erfc, ndtr and
// erf beyond 1, which multiply it by exp(-x^2); kErfcxD serves erfcx itself)
inline constexpr double kErfcxD22[] = {
    -0x1.772004cd8d1abp-29, -0x1.0c63b219c1bd8p-29, 0x1.17bb2c134e042p-25,
    0x1.429cb8b3e4f47p-26, -0x1.0c65f5e7a1e6cp-22, -0x1.b48392232d543p-25,
    0x1.d41cfdd12ab86p-20, -0x1.06e0d05323891p-20, -0x1.7fd98bfdd146cp-17,
    0x1.7799fa84f9929p-16, 0x1.b13fe29c4adcbp-15, -0x1.303ffce61d791p-12,
    0x1.33fb466bf4b0fp-12, 0x1.cc3a13ec5fe8bp-10, -0x1.3f603c5c10bdbp-7,
    0x1.d0b0037001e32p-6, -0x1.e0d0fa6d2ae2fp-5, 0x1.7a14188ae2e10p-4,
    -0x1.bda9309a2ca2ap-4, 0x1.510169d093b1ep-4, 0x1.d5f294815b4eep-9,
    -0x1.1f367683f8966p-3, 0x1.3ccda0b5d5dc2p+0};

// kLgamma23D: degree 24 in t, max rel. error 3.1e-16 on [-1, 1]
inline constexpr double kLgamma23D[] = {
    -0x1.3679047378ec5p-43, 0x1.e40e0ff577e89p-42, -0x1.0ec3697347bf1p-41,
    0x1.aa08b8a68dc89p-40, -0x1.f6b82a4e54fc3p-38, 0x1.8b9e1a8bcd79ep-36,
    -0x1.27890ef32d619p-34, 0x1.d4037a6600d11p-33, -0x1.75e3cc54e8c0bp-31,
    0x1.2a128d79b7b35p-29, -0x1.dd19ef13aa8a0p-28, 0x1.7fdfa30f73bf5p-26,
    -0x1.36af0ab31f96dp-24, 0x1.fa7254ed773a6p-23, -0x1.a05d07aa45572p-21,
    0x1.5a0792ab323ffp-19, -0x1.2399d67505742p-17, 0x1.f4920f784b7d5p-16,
    -0x1.b88e6aad6d843p-14, 0x1.91d5cda17aefdp-12, -0x1.82bca5e97c67ep-10,
    0x1.961a4f67e2f09p-8, -0x1.f462eddb40609p-6, 0x1.c0e0d366f2c12p-3,
    0x1.ff797bba88502p-2};

// kLgamma23F: degree 10 in t, max rel. error 1.8e-9 on [-1, 1]
inline constexpr double kLgamma23F[] = {
    -0x1.0ffc0fb8b81ddp-20, 0x1.c1cb442828a01p-19, -0x1.1b2d8818deb4cp-17,
    0x1.e6e188e114d56p-16, -0x1.b9075571e7a24p-14, 0x1.923808954ca7bp-12,
    -0x1.82bb481a514d8p-10, 0x1.9619334567337p-8, -0x1.f462eef474b2ep-6,
    0x1.c0e0d3d9258b2p-3, 0x1.ff797bba88502p-2};

// kPsiRootD: degree 16 in t, max rel. error 1.6e-16 on [-1, 1]
inline constexpr double kPsiRootD[] = {
    0x1.87ff06195a2abp-38, -0x1.dd7c8332fa81bp-36, 0x1.dd84816a24d5ap-34,
    -0x1.22dcf89daaa6ap-31, 0x1.6812c8d919e3bp-29, -0x1.b6c916e10698cp-27,
    0x1.0b463d4f52c60p-24, -0x1.45fd5b5fbc89dp-22, 0x1.8dfdb13435e1ap-20,
    -0x1.e6b23ee504c82p-18, 0x1.2a73df9579016p-15, -0x1.6fef4812ccbd7p-13,
    0x1.c9e661fd4f4c3p-11, -0x1.22178f12efa73p-8, 0x1.7d2c646f54ca8p-6,
    -0x1.10089ff9942e2p-3, 0x1.ef72bc8ee38acp-1};


}  // namespace arraycore::native::special::erf_gamma
