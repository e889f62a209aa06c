"""L1: the 67 elementwise ops of the Array API 2025.12, one line each.

Categories follow the standard ("floating" = real and complex floating-point).  Test metadata
(`T(...)`) names the NumPy reference and the input domain.  See arraycore/_core/op_table.py.
"""

from ..op_table import OpDef, TestInfo as T, register


def unary(name, accepts, result="same", int_to_float=False, test=None, **kw):
    return register(OpDef(name, 1, accepts, result, int_to_float, test=test, **kw))


def binary(name, accepts, result="same", int_to_float=False, test=None, **kw):
    return register(OpDef(name, 2, accepts, result, int_to_float, test=test, **kw))


FLOATING = "floating"
REAL_FLOATING = "real floating"
NUMERIC = "numeric"
REAL_NUMERIC = "real numeric"
INTEGRAL = "integral"
INT_OR_BOOL = "integer or boolean"
ANY = "any"

# --- arithmetic --------------------------------------------------------------------------
abs = unary("abs", NUMERIC, result="real", test=T("abs"))
negative = unary("negative", NUMERIC, linear=True, test=T("negative"))
positive = unary("positive", NUMERIC, linear=True, test=T("positive"))
square = unary("square", NUMERIC, test=T("square"))
sign = unary("sign", NUMERIC, test=T("sign"))
reciprocal = unary("reciprocal", FLOATING, int_to_float=True, test=T("reciprocal"))
add = binary("add", NUMERIC, linear=True, test=T("add"))
subtract = binary("subtract", NUMERIC, linear=True, test=T("subtract"))
multiply = binary("multiply", NUMERIC, test=T("multiply"))
divide = binary("divide", FLOATING, int_to_float=True, test=T("divide"))
floor_divide = binary("floor_divide", REAL_NUMERIC, test=T("floor_divide", nonzero_rhs=True))
remainder = binary("remainder", REAL_NUMERIC, test=T("remainder", nonzero_rhs=True))
pow = binary("pow", NUMERIC, test=T("power", small_ints=True, rtol=1e-5, rtol64=1e-11))
maximum = binary("maximum", REAL_NUMERIC, test=T("maximum"))
minimum = binary("minimum", REAL_NUMERIC, test=T("minimum"))
clip = register(OpDef("clip", 3, REAL_NUMERIC, test=T("clip")))

# --- exponentials, logarithms, powers ----------------------------------------------------
exp = unary("exp", FLOATING, int_to_float=True, test=T("exp", domain=(-80, 80)))
expm1 = unary("expm1", FLOATING, int_to_float=True, test=T("expm1", domain=(-80, 80)))
log = unary("log", FLOATING, int_to_float=True, test=T("log", domain=(0, None)))
log1p = unary("log1p", FLOATING, int_to_float=True, test=T("log1p", domain=(-1, None)))
log2 = unary("log2", FLOATING, int_to_float=True, test=T("log2", domain=(0, None)))
log10 = unary("log10", FLOATING, int_to_float=True, test=T("log10", domain=(0, None)))
sqrt = unary("sqrt", FLOATING, int_to_float=True, test=T("sqrt", domain=(0, None)))
logaddexp = binary("logaddexp", REAL_FLOATING, int_to_float=True, test=T("logaddexp"))
hypot = binary("hypot", REAL_FLOATING, int_to_float=True, test=T("hypot"))

# --- trigonometric and hyperbolic --------------------------------------------------------
sin = unary("sin", FLOATING, int_to_float=True, test=T("sin"))
cos = unary("cos", FLOATING, int_to_float=True, test=T("cos"))
tan = unary("tan", FLOATING, int_to_float=True, test=T("tan"))
asin = unary("asin", FLOATING, int_to_float=True, test=T("arcsin", domain=(-1, 1)))
acos = unary("acos", FLOATING, int_to_float=True, test=T("arccos", domain=(-1, 1)))
atan = unary("atan", FLOATING, int_to_float=True, test=T("arctan"))
atan2 = binary("atan2", REAL_FLOATING, int_to_float=True, test=T("arctan2"))
sinh = unary("sinh", FLOATING, int_to_float=True, test=T("sinh", domain=(-80, 80)))
cosh = unary("cosh", FLOATING, int_to_float=True, test=T("cosh", domain=(-80, 80)))
tanh = unary("tanh", FLOATING, int_to_float=True, test=T("tanh"))
asinh = unary("asinh", FLOATING, int_to_float=True, test=T("arcsinh"))
acosh = unary("acosh", FLOATING, int_to_float=True, test=T("arccosh", domain=(1, None)))
atanh = unary("atanh", FLOATING, int_to_float=True, test=T("arctanh", domain=(-1, 1)))

# --- rounding ----------------------------------------------------------------------------
ceil = unary("ceil", REAL_NUMERIC, test=T("ceil"))
floor = unary("floor", REAL_NUMERIC, test=T("floor"))
trunc = unary("trunc", REAL_NUMERIC, test=T("trunc"))
round = unary("round", NUMERIC, test=T("round"))

# --- floating-point classification and bit-level ops -------------------------------------
isfinite = unary("isfinite", NUMERIC, result="bool", test=T("isfinite"))
isinf = unary("isinf", NUMERIC, result="bool", test=T("isinf"))
isnan = unary("isnan", NUMERIC, result="bool", test=T("isnan"))
signbit = unary("signbit", REAL_FLOATING, result="bool", test=T("signbit"))
copysign = binary("copysign", REAL_FLOATING, int_to_float=True, test=T("copysign"))
nextafter = binary("nextafter", REAL_FLOATING, test=T("nextafter"))

# --- complex parts -----------------------------------------------------------------------
conj = unary("conj", NUMERIC, linear=True, test=T("conj"))
real = unary("real", NUMERIC, result="real", linear=True, test=T("real"))
imag = unary("imag", NUMERIC, result="real", linear=True, test=T("imag"))

# --- comparisons -------------------------------------------------------------------------
equal = binary("equal", ANY, result="bool", test=T("equal"))
not_equal = binary("not_equal", ANY, result="bool", test=T("not_equal"))
greater = binary("greater", REAL_NUMERIC, result="bool", test=T("greater"))
greater_equal = binary("greater_equal", REAL_NUMERIC, result="bool", test=T("greater_equal"))
less = binary("less", REAL_NUMERIC, result="bool", test=T("less"))
less_equal = binary("less_equal", REAL_NUMERIC, result="bool", test=T("less_equal"))

# --- logical (inputs of any dtype are read as truth values, as in NumPy) -----------------
logical_not = unary("logical_not", "bool", test=T("logical_not"))
logical_and = binary("logical_and", "bool", test=T("logical_and"))
logical_or = binary("logical_or", "bool", test=T("logical_or"))
logical_xor = binary("logical_xor", "bool", test=T("logical_xor"))

# --- bitwise -----------------------------------------------------------------------------
bitwise_invert = unary("bitwise_invert", INT_OR_BOOL, test=T("invert"))
bitwise_and = binary("bitwise_and", INT_OR_BOOL, test=T("bitwise_and"))
bitwise_or = binary("bitwise_or", INT_OR_BOOL, test=T("bitwise_or"))
bitwise_xor = binary("bitwise_xor", INT_OR_BOOL, test=T("bitwise_xor"))
bitwise_left_shift = binary("bitwise_left_shift", INTEGRAL,
                            test=T("left_shift", small_ints=True))
bitwise_right_shift = binary("bitwise_right_shift", INTEGRAL,
                             test=T("right_shift", small_ints=True))
