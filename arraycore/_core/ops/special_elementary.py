"""L1: op-table entries of arraycore.special, family elementary (see special.py for the layout).

One line per function: `special_op(name, arity, domains=...)`.
"""

from __future__ import annotations

from .special import special_op  # noqa: F401

_R = "special_refs_elementary"  # tests/special_refs_elementary.py: SciPy with its noted fixes

# degree-based trigonometry and angles
sindg = special_op("sindg", 1, domains=((-720, 720),))
cosdg = special_op("cosdg", 1, domains=((-720, 720),))
tandg = special_op("tandg", 1, domains=((-720, 720),))
cotdg = special_op("cotdg", 1, domains=((-720, 720),), ref=f"{_R}.cotdg",
                   notes="SciPy's cotdg rounds 90 - x, giving inf below 1e-14 degrees; the "
                         "reference is 1/tandg there")
radian = special_op("radian", 3, domains=((-360, 360), (-60, 60), (-60, 60)))
cosm1 = special_op("cosm1", 1, domains=((-10, 10),))
# powers, exponentials, sinc
cbrt = special_op("cbrt", 1, domains=((-100, 100),))
exp2 = special_op("exp2", 1, domains=((-50, 50),))
exp10 = special_op("exp10", 1, domains=((-30, 30),))
exprel = special_op("exprel", 1, domains=((-50, 50),))
sinc = special_op("sinc", 1, domains=((-10, 10),), ref=f"{_R}.sinc",
                  notes="normalized sin(pi x)/(pi x) (NumPy's, torch's); the reference reduces "
                        "x exactly (exact zeros at the integers)")
# entropies, logs, losses
entr = special_op("entr", 1, domains=((0, 10),))
_RATIO_NOTE = ("SciPy computes x log(x/y) as written (1e-11 relative error at x/y = 1.0007); "
               "the reference is mpmath for positive finite x, y, SciPy elsewhere")
rel_entr = special_op("rel_entr", 2, domains=((0, 10), (0.01, 10)), ref=f"{_R}.rel_entr",
                      notes=_RATIO_NOTE)
kl_div = special_op("kl_div", 2, domains=((0, 10), (0.01, 10)), ref=f"{_R}.kl_div",
                    notes=_RATIO_NOTE)
xlogy = special_op("xlogy", 2, domains=((-5, 5), (0.01, 10)))
xlog1py = special_op("xlog1py", 2, domains=((-5, 5), (-0.9, 10)))
huber = special_op("huber", 2, domains=((0, 5), (-10, 10)))
pseudo_huber = special_op("pseudo_huber", 2, domains=((0, 5), (-10, 10)))
# Box-Cox transforms (x, lambda) and their inverses (y, lambda)
boxcox = special_op("boxcox", 2, domains=((0.01, 10), (-3, 3)))
boxcox1p = special_op("boxcox1p", 2, domains=((-0.99, 10), (-3, 3)))
inv_boxcox = special_op("inv_boxcox", 2, domains=((0, 3), (0.1, 2)))
inv_boxcox1p = special_op("inv_boxcox1p", 2, domains=((0, 3), (0.1, 2)))
