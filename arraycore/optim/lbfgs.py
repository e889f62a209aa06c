"""L-BFGS (Nocedal & Wright, "Numerical Optimization", 2nd ed.: algorithm 7.4, the two-loop
recursion, and algorithms 3.5/3.6, the strong-Wolfe line search with cubic interpolation),
organised as PyTorch's `torch.optim.LBFGS` documents it: one `step(closure)` runs up to
`max_iter` iterations, the curvature pairs and the last direction persist across steps.

Vectors are flat arrays of all parameters (one `concat` of the gradients); the parameter
update is the native multi-tensor SGD kernel (p += t d, one call), so no per-element Python
runs.  Scalars (dot products, step lengths) are Python floats (double); PyTorch keeps them
in 0-d tensors of the parameter dtype, so float32 runs agree to float32 rounding and float64
runs agree to the last few bits.
"""

from __future__ import annotations

from ..autodiff import versions as _versions
from ..autodiff.grad_mode import enable_grad, no_grad
from ..native import _native
from ._checks import check_lr
from .optimizer import Optimizer

__all__ = ["LBFGS"]


def _dot(a, b):
    import arraycore as ac
    return float(ac.vecdot(a, b))


def _absmax(a):
    import arraycore as ac
    return float(ac.max(ac.abs(a)))


def _cubic_minimizer(x1, f1, g1, x2, f2, g2, bounds=None):
    """Minimizer of the cubic through (x1, f1, g1) and (x2, f2, g2), clipped to the bounds
    (Nocedal & Wright eq. 3.59); the bounds' midpoint when the cubic has no minimizer."""
    lo, hi = bounds if bounds is not None else ((x1, x2) if x1 <= x2 else (x2, x1))
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    d2_square = d1 * d1 - g1 * g2
    if d2_square < 0:
        return (lo + hi) / 2.0
    d2 = d2_square ** 0.5
    if x1 <= x2:
        pos = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
    else:
        pos = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
    return min(max(pos, lo), hi)


def _strong_wolfe(evaluate, t, d, f, g, gtd, c1=1e-4, c2=0.9, tolerance_change=1e-9,
                  max_ls=25):
    """Line search for a step t along d meeting the strong Wolfe conditions
    f(t) <= f + c1 t gtd and |g(t).d| <= -c2 gtd: bracketing (N&W algorithm 3.5) then zoom
    (algorithm 3.6) with safeguarded cubic interpolation.  `evaluate(t)` -> (loss, flat grad).
    Returns (loss, grad, t, evaluations)."""
    d_norm = _absmax(d)
    f_new, g_new = evaluate(t)
    evals = 1
    gtd_new = _dot(g_new, d)
    t_prev, f_prev, g_prev, gtd_prev = 0.0, f, g, gtd
    done = False
    it = 0
    bracket = bracket_f = bracket_g = bracket_gtd = None
    while it < max_ls:
        if f_new > f + c1 * t * gtd or (it > 1 and f_new >= f_prev):
            bracket, bracket_f = [t_prev, t], [f_prev, f_new]
            bracket_g, bracket_gtd = [g_prev, g_new], [gtd_prev, gtd_new]
            break
        if abs(gtd_new) <= -c2 * gtd:
            bracket, bracket_f, bracket_g = [t], [f_new], [g_new]
            done = True
            break
        if gtd_new >= 0:
            bracket, bracket_f = [t_prev, t], [f_prev, f_new]
            bracket_g, bracket_gtd = [g_prev, g_new], [gtd_prev, gtd_new]
            break
        # Extrapolate: a step between 1.01 t and 10 t from the cubic.
        t_next = _cubic_minimizer(t_prev, f_prev, gtd_prev, t, f_new, gtd_new,
                                  bounds=(t + 0.01 * (t - t_prev), t * 10))
        t_prev, f_prev, g_prev, gtd_prev = t, f_new, g_new, gtd_new
        t = t_next
        f_new, g_new = evaluate(t)
        evals += 1
        gtd_new = _dot(g_new, d)
        it += 1
    if it == max_ls:
        bracket, bracket_f, bracket_g = [0.0, t], [f, f_new], [g, g_new]
    insufficient = False
    low, high = (0, 1) if bracket_f[0] <= bracket_f[-1] else (1, 0)
    while not done and it < max_ls:
        if abs(bracket[1] - bracket[0]) * d_norm < tolerance_change:
            break
        t = _cubic_minimizer(bracket[0], bracket_f[0], bracket_gtd[0],
                             bracket[1], bracket_f[1], bracket_gtd[1])
        # Safeguard: a point too close to the bracket's ends moves 10% inside it.
        hi_t, lo_t = max(bracket), min(bracket)
        eps = 0.1 * (hi_t - lo_t)
        if min(hi_t - t, t - lo_t) < eps:
            if insufficient or t >= hi_t or t <= lo_t:
                t = hi_t - eps if abs(t - hi_t) < abs(t - lo_t) else lo_t + eps
                insufficient = False
            else:
                insufficient = True
        else:
            insufficient = False
        f_new, g_new = evaluate(t)
        evals += 1
        gtd_new = _dot(g_new, d)
        it += 1
        if f_new > f + c1 * t * gtd or f_new >= bracket_f[low]:
            bracket[high], bracket_f[high] = t, f_new
            bracket_g[high], bracket_gtd[high] = g_new, gtd_new
            low, high = (0, 1) if bracket_f[0] <= bracket_f[1] else (1, 0)
        else:
            if abs(gtd_new) <= -c2 * gtd:
                done = True
            elif gtd_new * (bracket[high] - bracket[low]) >= 0:
                bracket[high], bracket_f[high] = bracket[low], bracket_f[low]
                bracket_g[high], bracket_gtd[high] = bracket_g[low], bracket_gtd[low]
            bracket[low], bracket_f[low] = t, f_new
            bracket_g[low], bracket_gtd[low] = g_new, gtd_new
    return bracket_f[low], bracket_g[low], bracket[low], evals


class LBFGS(Optimizer):
    """Limited-memory BFGS.  `step(closure)` needs a closure that clears the gradients,
    computes the loss, calls `backward()` and returns the loss.  One param group only (as
    PyTorch); float32/float64 parameters (complex ones raise TypeError).

    `line_search_fn`: None (fixed step lr, the first one scaled by min(1, 1/|g|_1)) or
    "strong_wolfe".

    Example:
        >>> import arraycore as ac
        >>> x = ac.asarray([-1.5, 2.0], dtype=ac.float64); x.requires_grad_()
        >>> opt = ac.optim.LBFGS([x], lr=1, max_iter=100, line_search_fn="strong_wolfe")
        >>> def closure():
        ...     opt.zero_grad()
        ...     loss = (1 - x[0]) ** 2 + 100 * (x[1] - x[0] ** 2) ** 2
        ...     loss.backward()
        ...     return loss
        >>> _ = opt.step(closure)
        >>> [round(v, 6) for v in x.tolist()]
        [1.0, 1.0]
    """

    _who = "optim.LBFGS"

    def __init__(self, params, lr=1, max_iter=20, max_eval=None, tolerance_grad=1e-7,
                 tolerance_change=1e-9, history_size=100, line_search_fn=None):
        check_lr(self._who, lr)
        if max_eval is None:
            max_eval = max_iter * 5 // 4
        if line_search_fn not in (None, "strong_wolfe"):
            raise ValueError(f"{self._who}: line_search_fn must be None or 'strong_wolfe', got "
                             f"{line_search_fn!r}")
        defaults = dict(lr=lr, max_iter=max_iter, max_eval=max_eval,
                        tolerance_grad=tolerance_grad, tolerance_change=tolerance_change,
                        history_size=history_size, line_search_fn=line_search_fn)
        super().__init__(params, defaults)
        if len(self.param_groups) != 1:
            raise ValueError(f"{self._who}: LBFGS doesn't support per-parameter options "
                             "(parameter groups)")
        self._params = self.param_groups[0]["params"]
        for p in self._params:
            if p.dtype.kind == "c":
                raise TypeError(f"{self._who}: complex parameters are not supported (view "
                                "them as pairs of real parameters)")
        if len({p._dtype_code for p in self._params}) != 1:
            raise TypeError(f"{self._who}: all parameters must have one dtype")

    def add_param_group(self, param_group):
        if self.param_groups:
            raise ValueError(f"{self._who}: LBFGS doesn't support per-parameter options "
                             "(parameter groups)")
        super().add_param_group(param_group)

    # --- flat vectors -----------------------------------------------------------------------

    def _flat_grad(self):
        import arraycore as ac
        views = []
        for p in self._params:
            g = p.grad
            views.append(ac.zeros((p.size,), dtype=p.dtype) if g is None
                         else ac.reshape(g, (-1,)))
        return ac.concat(views) if len(views) > 1 else ac.asarray(views[0], copy=True)

    def _add_direction(self, t, d):
        """p += t * d[slice of p] for every parameter: one native multi-tensor call."""
        import arraycore as ac
        slices, off = [], 0
        for p in self._params:
            slices.append(ac.reshape(d[off:off + p.size], p.shape))
            off += p.size
        # The SGD kernel computes p + (-lr) * g; lr = -t gives p + t * d.
        _native.optim_sgd(self._params, slices, [], [], -float(t), 0.0, 0.0, 0.0, False, False)
        self._bump(self._params)

    def _clone_params(self):
        import arraycore as ac
        return [ac.asarray(p, copy=True) for p in self._params]

    def _set_params(self, values):
        for p, v in zip(self._params, values):
            p._copy_from(v)
            _versions.bump(p)

    def _evaluate(self, closure):
        with enable_grad():
            return float(closure())

    # --- step -----------------------------------------------------------------------------

    def step(self, closure):
        """Runs up to `max_iter` L-BFGS iterations; returns the loss of the first closure
        evaluation (as PyTorch)."""
        if closure is None:
            raise ValueError(f"{self._who}: step() needs a closure that reevaluates the model "
                             "and returns the loss")
        with no_grad():
            return self._step(closure)

    def _step(self, closure):
        import arraycore as ac
        group = self.param_groups[0]
        lr = float(group["lr"])
        max_iter, max_eval = group["max_iter"], group["max_eval"]
        tol_grad, tol_change = group["tolerance_grad"], group["tolerance_change"]
        line_search, history = group["line_search_fn"], group["history_size"]
        state = self.state.setdefault_dict(self._params[0])
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)

        with enable_grad():
            orig_loss = closure()
        loss = float(orig_loss)
        evals = 1
        state["func_evals"] += 1
        g = self._flat_grad()
        if _absmax(g) <= tol_grad:
            return orig_loss

        d, t = state.get("d"), state.get("t")
        old_dirs, old_stps, ro = state.get("old_dirs"), state.get("old_stps"), state.get("ro")
        h_diag, prev_g = state.get("H_diag"), state.get("prev_flat_grad")
        prev_loss = state.get("prev_loss")

        n_iter = 0
        while n_iter < max_iter:
            n_iter += 1
            state["n_iter"] += 1
            if state["n_iter"] == 1:
                d = -g
                old_dirs, old_stps, ro = [], [], []
                h_diag = 1.0
            else:
                # New curvature pair (y, s), kept when y.s > 1e-10 (positive curvature).
                y = g - prev_g
                s = d * t
                ys = _dot(y, s)
                if ys > 1e-10:
                    if len(old_dirs) == history:
                        old_dirs.pop(0)
                        old_stps.pop(0)
                        ro.pop(0)
                    old_dirs.append(y)
                    old_stps.append(s)
                    ro.append(1.0 / ys)
                    h_diag = ys / _dot(y, y)
                # Two-loop recursion: d = -H g (N&W algorithm 7.4).
                al = [0.0] * len(old_dirs)
                q = -g
                for i in range(len(old_dirs) - 1, -1, -1):
                    al[i] = _dot(old_stps[i], q) * ro[i]
                    q = q - al[i] * old_dirs[i]
                r = q * h_diag
                for i in range(len(old_dirs)):
                    be_i = _dot(old_dirs[i], r) * ro[i]
                    r = r + (al[i] - be_i) * old_stps[i]
                d = r
            prev_g = ac.asarray(g, copy=True)
            prev_loss = loss
            if state["n_iter"] == 1:
                t = min(1.0, 1.0 / float(ac.sum(ac.abs(g)))) * lr
            else:
                t = lr
            gtd = _dot(g, d)
            if gtd > -tol_change:
                break  # not a descent direction

            ls_evals = 0
            if line_search is not None:
                x0 = self._clone_params()

                def evaluate(step_len, x0=x0, d=d):
                    self._add_direction(step_len, d)
                    f_t = self._evaluate(closure)
                    g_t = self._flat_grad()
                    self._set_params(x0)
                    return f_t, g_t

                loss, g, t, ls_evals = _strong_wolfe(evaluate, t, d, loss, g, gtd,
                                                     tolerance_change=tol_change,
                                                     max_ls=max_eval - evals)
                self._add_direction(t, d)
                opt_cond = _absmax(g) <= tol_grad
            else:
                self._add_direction(t, d)
                opt_cond = False
                if n_iter != max_iter:
                    loss = self._evaluate(closure)
                    g = self._flat_grad()
                    opt_cond = _absmax(g) <= tol_grad
                    ls_evals = 1
            evals += ls_evals
            state["func_evals"] += ls_evals
            if n_iter == max_iter or evals >= max_eval or opt_cond:
                break
            if _absmax(d) * abs(t) <= tol_change:
                break
            if abs(loss - prev_loss) < tol_change:
                break

        state.update(d=d, t=t, old_dirs=old_dirs, old_stps=old_stps, ro=ro, H_diag=h_diag,
                     prev_flat_grad=prev_g, prev_loss=prev_loss)
        return orig_loss
