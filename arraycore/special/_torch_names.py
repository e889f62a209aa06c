"""PyTorch's torch.special names that SciPy spells differently (or that live in the main
namespace): each is the same function object as its target, bound after the autodiff install
so the alias differentiates exactly like the target (`ac.special.digamma is
ac.special.psi`).  Names both libraries share (erf, i0e, xlogy, ...) need no entry."""

from __future__ import annotations

# alias -> name in arraycore.special
SPECIAL_ALIASES = {
    "bessel_j0": "j0",
    "bessel_j1": "j1",
    "bessel_y0": "y0",
    "bessel_y1": "y1",
    "modified_bessel_i0": "i0",
    "modified_bessel_i1": "i1",
    "modified_bessel_k0": "k0",
    "modified_bessel_k1": "k1",
    "scaled_modified_bessel_k0": "k0e",
    "scaled_modified_bessel_k1": "k1e",
    "digamma": "psi",
}

# alias -> name in the main namespace (torch.special.round is torch.round, ...)
MAIN_ALIASES = {
    "round": "round",
    "expm1": "expm1",
    "log1p": "log1p",
}


def install(special_module, ns) -> None:
    g = vars(special_module)
    for alias, target in SPECIAL_ALIASES.items():
        if target in g:  # tests/test_special.py checks that every target exists
            g[alias] = g[target]
    for alias, target in MAIN_ALIASES.items():
        g[alias] = getattr(ns, target)
    special_module.__all__ = sorted(set(special_module.__all__) | set(MAIN_ALIASES)
                                    | {a for a in SPECIAL_ALIASES if a in g})
