"""Rényi-DP accounting of the sampled Gaussian mechanism (DP-SGD's noisy steps).

Each step releases a sum of clipped per-example gradients (sensitivity C) plus N(0, (sigma
C)^2) noise, over a batch drawn by Poisson sampling with rate q.  For integer orders alpha >= 2
its RDP is (Mironov, Talwar & Zhang 2019, "Rényi Differential Privacy of the Sampled Gaussian
Mechanism", section 3.3)

    eps(alpha) = 1 / (alpha - 1) * log A_alpha,
    A_alpha = sum_{k=0}^{alpha} binom(alpha, k) (1 - q)^(alpha - k) q^k exp((k^2 - k) / (2 sigma^2)),

RDP composes additively over steps, and an (alpha, eps_R)-RDP mechanism is
(eps_R + log(1/delta) / (alpha - 1), delta)-DP (Mironov 2017, "Rényi Differential Privacy",
proposition 3); the reported epsilon is the minimum over the orders.  The sum is evaluated in
log space (log-sum-exp of log-binomial terms), so large orders and small sigma do not
overflow.
"""

from __future__ import annotations

import math

__all__ = ["RDPAccountant", "rdp_sampled_gaussian", "DEFAULT_ORDERS"]

#: integer Rényi orders searched by default (dense where the optimum usually lies)
DEFAULT_ORDERS = tuple(range(2, 65)) + (72, 80, 96, 112, 128, 160, 192, 224, 256)


def _log_add(a, b):
    if a == -math.inf:
        return b
    if b == -math.inf:
        return a
    m = max(a, b)
    return m + math.log1p(math.exp(-abs(a - b)))


def rdp_sampled_gaussian(sample_rate, noise_multiplier, order):
    """RDP epsilon of one step of the sampled Gaussian mechanism at integer `order` >= 2.

    Example:
        >>> from arraycore.optim.accountant import rdp_sampled_gaussian
        >>> rdp_sampled_gaussian(1.0, 2.0, 8)   # q = 1: the Gaussian mechanism, alpha / (2 sigma^2)
        1.0
    """
    q, sigma, a = float(sample_rate), float(noise_multiplier), order
    if not isinstance(a, int) or a < 2:
        raise ValueError(f"rdp_sampled_gaussian: orders must be integers >= 2, got {order!r}")
    if not 0.0 <= q <= 1.0:
        raise ValueError(f"rdp_sampled_gaussian: sample_rate must be in [0, 1], got {q}")
    if sigma < 0:
        raise ValueError(f"rdp_sampled_gaussian: noise_multiplier must be >= 0, got {sigma}")
    if q == 0:
        return 0.0
    if sigma == 0:
        return math.inf
    if q == 1.0:
        return a / (2 * sigma ** 2)
    log_q, log_1q = math.log(q), math.log1p(-q)
    log_a = -math.inf
    for k in range(a + 1):
        log_binom = math.lgamma(a + 1) - math.lgamma(k + 1) - math.lgamma(a - k + 1)
        term = log_binom + (a - k) * log_1q + k * log_q + (k * k - k) / (2 * sigma ** 2)
        log_a = _log_add(log_a, term)
    return max(log_a, 0.0) / (a - 1)


class RDPAccountant:
    """Tracks the privacy spent by DP-SGD steps (RDP of the sampled Gaussian mechanism,
    composed over steps and converted to (epsilon, delta)-DP).

    Example:
        >>> from arraycore.optim import RDPAccountant
        >>> acc = RDPAccountant()
        >>> acc.step(noise_multiplier=1.1, sample_rate=256 / 60000, steps=14000)
        >>> eps = acc.get_epsilon(1e-5)
        >>> 2.0 < eps < 5.0
        True
    """

    def __init__(self, orders=DEFAULT_ORDERS):
        orders = tuple(orders)
        if not orders or any(not isinstance(a, int) or a < 2 for a in orders):
            raise ValueError("RDPAccountant: orders must be a non-empty list of integers >= 2")
        self.orders = orders
        self.history = []  # [(noise_multiplier, sample_rate, steps)]

    def step(self, noise_multiplier, sample_rate, steps=1):
        """Records `steps` steps with the given noise multiplier and sampling rate."""
        if not 0.0 <= float(sample_rate) <= 1.0:
            raise ValueError(f"RDPAccountant.step: sample_rate must be in [0, 1], got "
                             f"{sample_rate}")
        if float(noise_multiplier) < 0:
            raise ValueError(f"RDPAccountant.step: noise_multiplier must be >= 0, got "
                             f"{noise_multiplier}")
        if self.history and self.history[-1][:2] == (noise_multiplier, sample_rate):
            nm, q, n = self.history[-1]
            self.history[-1] = (nm, q, n + steps)
        else:
            self.history.append((noise_multiplier, sample_rate, steps))

    @property
    def steps(self):
        return sum(n for _, _, n in self.history)

    def rdp(self):
        """The composed RDP epsilon at each order."""
        return [sum(n * rdp_sampled_gaussian(q, nm, a) for nm, q, n in self.history)
                for a in self.orders]

    def get_privacy_spent(self, delta):
        """(epsilon, best order) for the given delta."""
        delta = float(delta)
        if not 0.0 < delta < 1.0:
            raise ValueError(f"RDPAccountant.get_epsilon: delta must be in (0, 1), got {delta}")
        if not self.history:
            return 0.0, None
        best = (math.inf, None)
        for a, r in zip(self.orders, self.rdp()):
            eps = r + math.log(1 / delta) / (a - 1)
            if eps < best[0]:
                best = (eps, a)
        return best

    def get_epsilon(self, delta):
        """The epsilon of (epsilon, delta)-DP for the steps recorded so far."""
        return self.get_privacy_spent(delta)[0]

    def state_dict(self):
        return {"orders": list(self.orders), "history": [list(h) for h in self.history]}

    def load_state_dict(self, state_dict):
        self.orders = tuple(int(a) for a in state_dict["orders"])
        self.history = [tuple(h) for h in state_dict["history"]]
