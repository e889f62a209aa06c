import mpmath as mp, numpy as np, sys
mp.mp.dps = 40
def cheb(f, n):
    N = n+1
    xs = [mp.cos(mp.pi*(k+mp.mpf(1)/2)/N) for k in range(N)]
    fs = [f(x) for x in xs]
    c = []
    for j in range(N):
        s = sum(fs[k]*mp.cos(mp.pi*j*(k+mp.mpf(1)/2)/N) for k in range(N))
        c.append(2*s/N)
    c[0] /= 2
    return c
def cheb2mono(c):
    # sum c_j T_j(t) -> monomial coefficients (lowest first)
    n = len(c)
    T = [[mp.mpf(1)], [mp.mpf(0), mp.mpf(1)]]
    for j in range(2, n):
        a = [mp.mpf(0)] + [2*v for v in T[j-1]]
        b = T[j-2] + [mp.mpf(0)]*(len(a)-len(T[j-2]))
        T.append([x-y for x, y in zip(a, b)])
    m = [mp.mpf(0)]*n
    for j in range(n):
        for k, v in enumerate(T[j]): m[k] += c[j]*v
    return m
def fit(name, f, n, dtype, check=2000):
    c = cheb(f, n)
    m = cheb2mono(c)
    hi = [float(v) for v in reversed(m)]  # highest first
    if dtype == 'f': hi = [float(np.float32(v)) for v in hi]
    # evaluate error in double (float Horner for 'f')
    ts = np.cos(np.linspace(0, np.pi, check))
    T = np.float64 if dtype == 'd' else np.float32
    err = 0
    for t in ts:
        r = T(hi[0])
        for v in hi[1:]: r = T(r*T(t) + T(v))
        ex = f(mp.mpf(float(T(t))))
        e = abs((mp.mpf(float(r)) - ex)/ex) if ex != 0 else 0
        err = max(err, e)
    suffix = 'f' if dtype == 'f' else ''
    print(f"// {name}: degree {n}, max rel. error {mp.nstr(err,3)} (Chebyshev interpolation, mpmath)", file=sys.stderr)
    fmt = (lambda v: float(v).hex()) if dtype == 'd' else (lambda v: float(np.float32(v)).hex()+'f')
    body = ",\n    ".join(", ".join(fmt(v) for v in hi[i:i+3]) for i in range(0, len(hi), 3))
    ty = 'double' if dtype == 'd' else 'float'
    print(f"// {name}: degree {n} in t, max rel. error {mp.nstr(err,2)} on [-1, 1]\ninline constexpr {ty} {name}[] = {{\n    {body}}};\n")
    return err
K = mp.mpf(3.75)
def f_erfcx(y):
    if y == 1: return 2/mp.sqrt(mp.pi)
    x = K*(1+y)/(1-y)
    return (1+2*x)*mp.exp(x*x)*mp.erfc(x)
def f_erfsmall(t):  # t in [-1,1] -> s = x^2 = (t+1)/2 in [0,1]
    s = (t+1)/2
    if abs(s) < 1e-30: return 2/mp.sqrt(mp.pi)
    x = mp.sqrt(s); return mp.erf(x)/x
def f_erfmid(t):  # t in [-1,1] -> s = x^2 = 4.5 (t+1) in [0, 9]
    s = mp.mpf('4.5')*(t+1)
    if abs(s) < 1e-30: return 2/mp.sqrt(mp.pi)
    x = mp.sqrt(s); return mp.erf(x)/x
def f_lg23(t):  # p = 0.75 t + 0.25 in [-0.5, 1]
    p = mp.mpf('0.75')*t + mp.mpf('0.25')
    if abs(p) < 1e-25: return mp.digamma(2)
    return mp.loggamma(2+p)/p
X0 = mp.findroot(mp.digamma, 1.46)
def f_psiroot(t):  # d = 0.3 t
    d = mp.mpf('0.3')*t
    if abs(d) < 1e-25: return mp.polygamma(1, X0)
    return mp.digamma(X0+d)/d
which = sys.argv[1]
if which == 'erfcx':
    fit('kErfcxD', f_erfcx, int(sys.argv[2]), 'd')  # (float results: kErfcxGF/kErfcxGD, the rational tool)
if which == 'erfcx22':  # erfc, ndtr and erf beyond 1 (erfcx_pos_clamped_v, erfc_abs_v)
    fit('kErfcxD22', f_erfcx, 22, 'd')
if which == 'erfsmall':
    fit('kErfSmallD', f_erfsmall, int(sys.argv[2]), 'd')
if which == 'erfmid':
    fit('kErfMidD', f_erfmid, int(sys.argv[2]), 'd')
if which == 'lg23':
    fit('kLgamma23D', f_lg23, int(sys.argv[2]), 'd'); fit('kLgamma23F', f_lg23, int(sys.argv[3]), 'd')
if which == 'psiroot':
    print("x0 =", mp.nstr(X0, 30), float(X0).hex(), float(X0 - float(X0)).hex())
    fit('kPsiRootD', f_psiroot, int(sys.argv[2]), 'd')
