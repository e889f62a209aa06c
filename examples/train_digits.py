"""Train a small convnet on scikit-learn's 8x8 digits with arraycore, the way a PyTorch user
would (replace `torch` with `ac`):

    pip install ".[examples]" && python examples/train_digits.py

What it does (issue 10, part 11):
1. loads the 1797 bundled digit images (no download) and splits them 80/20 (stratified);
2. trains the convnet of examples/digits_model.py with Adam (cosine-annealed learning rate) on
   a shuffled `ac.data.DataLoader`, each batch randomly shifted by up to a pixel, with a tqdm
   progress bar, evaluating on the test set after each epoch;
3. saves a checkpoint (model and optimizer state, history) with `ac.save` (safetensors) and a
   PNG of the loss and accuracy curves (matplotlib);
4. reloads the checkpoint into a fresh model and checks it predicts exactly the same;
5. computes per-example gradient norms of a batch with `ac.func.vmap(ac.func.grad(...))`
   through `ac.func.functional_call`, and checks their mean against the tape's batch gradient.

Exits with status 1 if the test accuracy is below 98% or a check fails.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import arraycore as ac
from arraycore import nn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import digits_model as dm  # noqa: E402

TARGET_ACCURACY = 0.98


def evaluate(model, loss_fn, x, y):
    """(mean loss, accuracy, logits) on a whole set, in eval mode without the tape."""
    model.eval()
    with ac.no_grad():
        logits = model(x)
        loss = float(loss_fn(logits, y))
        accuracy = float(ac.mean(ac.astype(ac.argmax(logits, axis=1) == y, ac.float32)))
    return loss, accuracy, logits


def train(model, loss_fn, train_loader, x_test, y_test, epochs, lr, progress, augment):
    opt = ac.optim.Adam(model.parameters(), lr=lr)
    schedule = ac.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=epochs)
    history = {"train_loss": [], "test_loss": [], "test_accuracy": []}
    for epoch in range(epochs):
        model.train()
        total, seen = 0.0, 0
        for xb, yb in train_loader:
            opt.zero_grad()
            loss = loss_fn(model(augment(xb)), yb)
            loss.backward()
            opt.step()
            total += loss.item() * xb.shape[0]
            seen += xb.shape[0]
            progress.update(1)
            progress.set_postfix(epoch=epoch + 1, loss=f"{loss:.4f}")
        schedule.step()
        test_loss, accuracy, _ = evaluate(model, loss_fn, x_test, y_test)
        history["train_loss"].append(total / seen)
        history["test_loss"].append(test_loss)
        history["test_accuracy"].append(accuracy)
        progress.set_postfix(epoch=epoch + 1, loss=f"{total / seen:.4f}",
                             test_acc=f"{accuracy:.2%}")
    return opt, history


def plot_curves(history, path):
    import matplotlib
    matplotlib.use("Agg")  # files only, no display needed
    import matplotlib.pyplot as plt

    epochs = range(1, len(history["train_loss"]) + 1)
    fig, (ax_loss, ax_acc) = plt.subplots(1, 2, figsize=(10, 4))
    ax_loss.plot(epochs, history["train_loss"], label="train")
    ax_loss.plot(epochs, history["test_loss"], label="test")
    ax_loss.set(xlabel="epoch", ylabel="cross-entropy", title="loss", yscale="log")
    ax_loss.legend()
    ax_acc.plot(epochs, [100 * a for a in history["test_accuracy"]], color="tab:green")
    ax_acc.axhline(100 * TARGET_ACCURACY, color="gray", linestyle="--", linewidth=1)
    ax_acc.set(xlabel="epoch", ylabel="%", title="test accuracy")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def per_example_gradient_norms(model, loss_fn, xb, yb):
    """Each example's gradient norm over all parameters, with vmap(grad(...)) through
    functional_call; also the largest difference between the mean of the per-example
    gradients and the batch gradient from the tape."""
    model.eval()  # dropout off: each example's gradient is deterministic
    params = {name: p.detach() for name, p in model.named_parameters()}

    def example_loss(params, x, y):
        logits = ac.func.functional_call(model, params, (ac.expand_dims(x, axis=0),))
        return loss_fn(logits, ac.expand_dims(y, axis=0))

    grads = ac.func.vmap(ac.func.grad(example_loss), in_dims=(None, 0, 0))(params, xb, yb)
    squared = sum(ac.sum(ac.reshape(g, (g.shape[0], -1)) ** 2, axis=1) for g in grads.values())

    model.zero_grad()
    loss_fn(model(xb), yb).backward()  # mean loss over the batch, on the tape
    mismatch = max(float(ac.max(ac.abs(ac.mean(grads[name], axis=0) - p.grad)))
                   for name, p in model.named_parameters())
    return ac.sqrt(squared), mismatch


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--epochs", type=int, default=dm.EPOCHS)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out-dir", default="digits_out", help="where the checkpoint and PNG go")
    ap.add_argument("--threads", type=int, default=None,
                    help="engine threads (default: ARRAYCORE_NUM_THREADS or all cores)")
    args = ap.parse_args(argv)
    from tqdm import tqdm

    if args.threads:
        ac.set_num_threads(args.threads)
    os.makedirs(args.out_dir, exist_ok=True)
    t_start = time.perf_counter()
    ac.manual_seed(args.seed)  # parameter init and dropout masks

    x_train, y_train, x_test, y_test = (ac.asarray(a) for a in dm.load_digits_split())
    train_loader = ac.data.DataLoader(ac.data.TensorDataset(x_train, y_train),
                                      batch_size=dm.BATCH_SIZE, shuffle=True,
                                      generator=ac.random.Generator(args.seed))
    model = dm.build_model(nn)
    loss_fn = nn.CrossEntropyLoss()
    n_params = sum(p.size for p in model.parameters())
    print(f"digits: {x_train.shape[0]} train / {x_test.shape[0]} test images; "
          f"model: {n_params} parameters")

    shifts = ac.random.Generator(args.seed + 1)
    background = float(ac.min(x_train))  # a blank pixel, standardized

    def augment(xb):
        return dm.random_shift(ac, xb, shifts, background)

    with tqdm(total=args.epochs * len(train_loader), unit="batch", desc="training") as bar:
        opt, history = train(model, loss_fn, train_loader, x_test, y_test, args.epochs,
                             dm.LEARNING_RATE, bar, augment)
    test_loss, accuracy, logits = evaluate(model, loss_fn, x_test, y_test)
    print(f"test accuracy {accuracy:.2%} (loss {test_loss:.4f}) after {args.epochs} epochs, "
          f"{time.perf_counter() - t_start:.1f} s")

    ckpt_path = os.path.join(args.out_dir, "digits_convnet.safetensors")
    ac.save({"model": model.state_dict(), "optimizer": opt.state_dict(),
             "epochs": args.epochs, "history": history}, ckpt_path)
    png_path = os.path.join(args.out_dir, "digits_curves.png")
    plot_curves(history, png_path)
    print(f"saved {ckpt_path} and {png_path}")

    ckpt = ac.load(ckpt_path)
    restored = dm.build_model(nn)
    restored.load_state_dict(ckpt["model"])
    restored_opt = ac.optim.Adam(restored.parameters(), lr=dm.LEARNING_RATE)
    restored_opt.load_state_dict(ckpt["optimizer"])  # training could resume from here
    _, restored_accuracy, restored_logits = evaluate(restored, loss_fn, x_test, y_test)
    same = bool(ac.all(restored_logits == logits))
    print(f"reloaded checkpoint: identical predictions {same}, accuracy "
          f"{restored_accuracy:.2%}")

    xb, yb = next(iter(ac.data.DataLoader(ac.data.TensorDataset(x_test, y_test),
                                          batch_size=16)))
    norms, mismatch = per_example_gradient_norms(model, loss_fn, xb, yb)
    print("per-example gradient norms of a test batch (vmap(grad) through functional_call):")
    print("  " + " ".join(f"{v:.3g}" for v in norms.tolist()))
    print(f"  mean of per-example gradients vs the tape's batch gradient: max |diff| "
          f"{mismatch:.2e}")
    print(f"total {time.perf_counter() - t_start:.1f} s")

    ok = accuracy >= TARGET_ACCURACY and same and mismatch < 1e-5
    if not ok:
        print(f"FAILED: accuracy {accuracy:.2%} (target {TARGET_ACCURACY:.0%}), identical "
              f"reload {same}, gradient mismatch {mismatch:.2e}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
