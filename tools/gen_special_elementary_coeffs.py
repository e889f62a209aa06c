# Coefficient generator for special_elementary.h (Taylor series and Chebyshev fits in mpmath).
import mpmath as mp
mp.mp.dps = 50
def h(v): return float(v).hex()
# sin(pi t)/(pi t) = sum (-1)^k (pi t)^(2k)/(2k+1)!, as a polynomial in u = t^2
print("sinpi_over_pit", [h((-1)**k * mp.pi**(2*k) / mp.factorial(2*k+1)) for k in range(10)][::-1])
print("cospi", [h((-1)**k * mp.pi**(2*k) / mp.factorial(2*k)) for k in range(10)][::-1])
# (cos x - 1)/x^2 = sum_{k>=1} (-1)^k x^(2k-2)/(2k)!
print("cosm1", [h((-1)**k / mp.factorial(2*k)) for k in range(1, 11)][::-1])
# cbrt on [1, 2): Chebyshev fit degree 5
c, err = mp.chebyfit(lambda m: mp.cbrt(m), [1, 2], 6, error=True)
print("cbrt", [h(v) for v in c], float(err))
# kl series: (1+d) log(1+d) - d = d^2 * sum_{n>=2} (-1)^n d^(n-2) / (n (n-1))
print("kl", [h(mp.mpf((-1)**n) / (n*(n-1))) for n in range(2, 22)][::-1])
# 2^f on [-1/2, 1/2]: Chebyshev fits, degree 11 (double) and 6 (float, rounded to float)
for deg in (11, 6):
    c, err = mp.chebyfit(lambda f: mp.power(2, f), [-0.5, 0.5], deg + 1, error=True)
    print("exp2", deg, [h(v) for v in c], float(err))
