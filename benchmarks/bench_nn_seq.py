"""Sequence layers, arraycore vs PyTorch, one process, interleaved, ratios of medians.

Cases (issue 10's performance targets):
  lstm_fwd_bwd     nn.LSTM(256, 256, num_layers=2), sequence 64, batch 32, float32:
                   forward + backward of out.sum() (gradients of input and all weights)
  encoder_infer    nn.TransformerEncoderLayer(d_model=256, nhead=8) (dim_feedforward 2048,
                   batch_first), sequence 128, batch 16, eval mode under no_grad: arraycore's
                   fused native path vs PyTorch's fast path (BetterTransformer)
  gru_fwd_bwd      nn.GRU, same sizes as the LSTM
  mha_fwd_bwd      nn.MultiheadAttention(256, 8), sequence 128, batch 16, forward+backward

Every repetition times one sample of each library in turn (the first library alternates),
and the report gives the median per library and the ratio arraycore / torch (< 1: arraycore
is faster).  Threads: set before the libraries start (default 1).

    PYTHONPATH=. python benchmarks/bench_nn_seq.py [--threads 1] [--reps 15] [--cases lstm,...]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time


def _parse():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--reps", type=int, default=15)
    p.add_argument("--cases", default="lstm_fwd_bwd,encoder_infer,gru_fwd_bwd,mha_fwd_bwd")
    return p.parse_args()


ARGS = _parse()
for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
            "ARRAYCORE_NUM_THREADS"):
    os.environ[var] = str(ARGS.threads)

import numpy as np  # noqa: E402
import torch  # noqa: E402

import arraycore as ac  # noqa: E402

torch.set_num_threads(ARGS.threads)
ac.set_num_threads(ARGS.threads)


def _copy_weights(amod, tmod):
    amod.load_state_dict({k: ac.asarray(v.detach().numpy().copy())
                          for k, v in tmod.state_dict().items()})


def _rnn_case(kind):
    T, B, I, H, L = 64, 32, 256, 256, 2
    tm = getattr(torch.nn, kind)(I, H, num_layers=L)
    am = getattr(ac.nn, kind)(I, H, num_layers=L)
    _copy_weights(am, tm)
    x = np.random.default_rng(0).standard_normal((T, B, I)).astype(np.float32)
    tx = torch.from_numpy(x).requires_grad_()
    ax = ac.asarray(x)
    ax.requires_grad_()

    def run_torch():
        out, _ = tm(tx)
        out.sum().backward()

    def run_ac():
        out, _ = am(ax)
        ac.sum(out).backward()

    return run_torch, run_ac


def _encoder_case():
    B, S, D, H = 16, 128, 256, 8
    tl = torch.nn.TransformerEncoderLayer(D, H, batch_first=True).eval()
    al = ac.nn.TransformerEncoderLayer(D, H, batch_first=True).eval()
    _copy_weights(al, tl)
    x = np.random.default_rng(1).standard_normal((B, S, D)).astype(np.float32)
    tx, ax = torch.from_numpy(x), ac.asarray(x)

    def run_torch():
        with torch.no_grad():
            tl(tx)

    def run_ac():
        with ac.no_grad():
            al(ax)

    return run_torch, run_ac


def _mha_case():
    B, S, D, H = 16, 128, 256, 8
    tm = torch.nn.MultiheadAttention(D, H, batch_first=True)
    am = ac.nn.MultiheadAttention(D, H, batch_first=True)
    _copy_weights(am, tm)
    x = np.random.default_rng(2).standard_normal((B, S, D)).astype(np.float32)
    tx = torch.from_numpy(x).requires_grad_()
    ax = ac.asarray(x)
    ax.requires_grad_()

    def run_torch():
        out, _ = tm(tx, tx, tx, need_weights=False)
        out.sum().backward()

    def run_ac():
        out, _ = am(ax, ax, ax, need_weights=False)
        ac.sum(out).backward()

    return run_torch, run_ac


CASES = {
    "lstm_fwd_bwd": lambda: _rnn_case("LSTM"),
    "gru_fwd_bwd": lambda: _rnn_case("GRU"),
    "encoder_infer": _encoder_case,
    "mha_fwd_bwd": _mha_case,
}


def _time(fn):
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def main():
    print(f"threads={ARGS.threads} reps={ARGS.reps} torch {torch.__version__}")
    print(f"{'case':<16}{'torch ms':>12}{'arraycore ms':>15}{'ac/torch':>10}")
    for name in ARGS.cases.split(","):
        run_torch, run_ac = CASES[name]()
        for f in (run_torch, run_ac, run_torch, run_ac):  # warm-up
            f()
        samples = {"torch": [], "ac": []}
        for rep in range(ARGS.reps):
            order = (("torch", run_torch), ("ac", run_ac))
            for lib, f in (order if rep % 2 == 0 else order[::-1]):
                samples[lib].append(_time(f))
        mt = statistics.median(samples["torch"]) * 1e3
        ma = statistics.median(samples["ac"]) * 1e3
        print(f"{name:<16}{mt:>12.2f}{ma:>15.2f}{ma / mt:>10.2f}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
