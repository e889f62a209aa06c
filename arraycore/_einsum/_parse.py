"""einsum's subscripts: the string form ('ij,jk->ik', implicit 'ij,jk', '...') and NumPy's
interleaved form (`einsum(a, [0, 1], b, [1, 2], [0, 2])`), parsed into label lists.

A label is a letter ('a'-'z', 'A'-'Z').  The dimensions an ellipsis stands for get labels
of their own once the operands' ranks are known (`expand`): '.0', '.1', ... counted so
that the ellipsis dimensions of all operands line up from the right, which is NumPy's
broadcasting of the ellipsis.
"""

from __future__ import annotations

import functools
import operator
import string

LETTERS = frozenset(string.ascii_letters)
# The interleaved form's integers 0-51 name the letters in this order (NumPy's), so that the
# implicit output, sorted, keeps the integers' order.
_INT_LABELS = string.ascii_uppercase + string.ascii_lowercase


def _term(text, where, subscripts):
    """A term's letters and the index of its ellipsis among them (None if it has none)."""
    labels, ellipsis, i = [], None, 0
    while i < len(text):
        c = text[i]
        if c in LETTERS:
            labels.append(c)
            i += 1
        elif c == ".":
            if text[i:i + 3] != "...":
                raise ValueError(f"einsum: subscripts {subscripts!r}: a '.' in {where} is not "
                                 f"part of an ellipsis ('...')")
            if ellipsis is not None:
                raise ValueError(f"einsum: subscripts {subscripts!r}: {where} has more than "
                                 f"one ellipsis")
            ellipsis = len(labels)
            i += 3
        else:
            raise ValueError(f"einsum: invalid character {c!r} in subscripts {subscripts!r}: "
                             f"subscripts are letters a-z, A-Z, '...', ',' and '->'")
    return tuple(labels), ellipsis


@functools.lru_cache(maxsize=512)
def parse(subscripts: str, n_operands: int):
    """((letters, ellipsis position) per input, output term or None when implicit)."""
    s = "".join(subscripts.split())
    if "->" in s:
        lhs, rhs = s.split("->", 1)
        if "->" in rhs:
            raise ValueError(f"einsum: subscripts {subscripts!r} contain '->' more than once")
    else:
        lhs, rhs = s, None
    for c in "->":
        if c in lhs or (rhs is not None and c in rhs):
            raise ValueError(f"einsum: invalid character {c!r} in subscripts {subscripts!r} "
                             f"(the output is given after '->')")
    texts = lhs.split(",")
    if len(texts) != n_operands:
        raise ValueError(f"einsum: subscripts {subscripts!r} name {len(texts)} operand(s), but "
                         f"{n_operands} were given")
    inputs = tuple(_term(t, f"operand {k}'s term", subscripts) for k, t in enumerate(texts))
    output = None
    if rhs is not None:
        output = _term(rhs, "the output", subscripts)
        seen = set()
        for c in output[0]:
            if c in seen:
                raise ValueError(f"einsum: subscripts {subscripts!r}: output label {c!r} "
                                 f"appears more than once")
            seen.add(c)
            if not any(c in t[0] for t in inputs):
                raise ValueError(f"einsum: subscripts {subscripts!r}: output label {c!r} is "
                                 f"not in any input")
    return inputs, output


def _ellipsis_labels(n, total):
    """Labels of an ellipsis of n dimensions when the widest one has `total` (right-aligned)."""
    return tuple(f".{k}" for k in range(total - n, total))


@functools.lru_cache(maxsize=512)
def expand(subscripts: str, ndims: tuple):
    """(labels per operand, output labels) with ellipses replaced by their dimensions'
    labels; ValueError when a term does not match its operand's rank."""
    inputs, output = parse(subscripts, len(ndims))
    widths = []
    for k, ((letters, ell), nd) in enumerate(zip(inputs, ndims)):
        if ell is None:
            if nd != len(letters):
                raise ValueError(f"einsum: operand {k} has {nd} dimension(s) but its term "
                                 f"{''.join(letters)!r} names {len(letters)} (use '...' for "
                                 f"dimensions that are not named)")
            widths.append(0)
        else:
            if nd < len(letters):
                raise ValueError(f"einsum: operand {k} has {nd} dimension(s), fewer than the "
                                 f"{len(letters)} labels of its term")
            widths.append(nd - len(letters))
    total = max(widths, default=0)
    labels = []
    for (letters, ell), w in zip(inputs, widths):
        if ell is None:
            labels.append(letters)
        else:
            labels.append(letters[:ell] + _ellipsis_labels(w, total) + letters[ell:])
    if output is None:  # implicit: the broadcast ellipsis, then the letters seen once, sorted
        counts = {}
        for letters, _ in inputs:
            for c in letters:
                counts[c] = counts.get(c, 0) + 1
        out = _ellipsis_labels(total, total) + tuple(sorted(c for c, n in counts.items()
                                                            if n == 1))
    else:
        letters, ell = output
        if ell is None:
            if total:
                raise ValueError(f"einsum: subscripts {subscripts!r}: the operands' '...' "
                                 f"stands for {total} dimension(s) but the output has no "
                                 f"'...' to put them")
            out = letters
        else:
            out = letters[:ell] + _ellipsis_labels(total, total) + letters[ell:]
    return tuple(labels), out


def _sublist_term(sub, what):
    try:
        items = list(sub)
    except TypeError:
        raise TypeError(f"einsum: {what} must be a list of integers in [0, 52) and Ellipsis, "
                        f"got {type(sub).__name__}") from None
    out = []
    for v in items:
        if v is Ellipsis:
            out.append("...")
            continue
        if isinstance(v, bool):
            raise TypeError(f"einsum: {what} holds {v!r}; subscripts are integers in [0, 52) "
                            f"or Ellipsis")
        try:
            v = operator.index(v)
        except TypeError:
            raise TypeError(f"einsum: {what} holds {v!r}; subscripts are integers in [0, 52) "
                            f"or Ellipsis") from None
        if not 0 <= v < 52:
            raise ValueError(f"einsum: {what} holds {v}; subscripts are integers in [0, 52)")
        out.append(_INT_LABELS[v])
    return "".join(out)


def from_interleaved(args):
    """NumPy's `einsum(op0, sublist0, op1, sublist1, ..., [sublist_out])` as
    (subscripts string, operands)."""
    operands = list(args[0:len(args) - 1:2]) if len(args) % 2 else list(args[0::2])
    subs = args[1::2]
    terms = [_sublist_term(s, f"the subscripts of operand {k}") for k, s in enumerate(subs)]
    text = ",".join(terms)
    if len(args) % 2:
        text += "->" + _sublist_term(args[-1], "the output subscripts")
    return text, operands
