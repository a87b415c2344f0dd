"""Character n-gram statistics of a text (the pattern of language-identification and
text-generation tutorials): the text encoded to a uint8 array with `np.frombuffer`, folded to
27 symbols (letters and a space) by a lookup table, bigram codes `a * 27 + b` counted by
`np.bincount(minlength=)` into a (27, 27) int64 matrix, trigrams counted by
`np.unique(return_counts=True)` and the top ones by `np.argsort(kind="stable")`, add-one
smoothed log-probabilities, the per-character cross entropy of another text, a Markov text
generator drawing the next symbol by `np.searchsorted` of a cumulative row, and a
rolling-hash of words into a uint32 count table with wrapping arithmetic.
"""
import numpy as np

TEXT = ("the quick brown fox jumps over the lazy dog while the cat sleeps in the warm sun "
        "and the dog dreams of the fox that runs through the green fields near the river "
        "where the old mill turns slowly in the wind and the water runs cold and clear")
OTHER = "the fox and the dog run to the river in the cold wind"
LOOKUP = np.full(256, 26, dtype=np.uint8)
LOOKUP[np.frombuffer(b"abcdefghijklmnopqrstuvwxyz", dtype=np.uint8)] = np.arange(26, dtype=np.uint8)
ALPHABET = np.array(list("abcdefghijklmnopqrstuvwxyz "))


def encode(text):
    raw = np.frombuffer(text.lower().encode("ascii"), dtype=np.uint8)
    return LOOKUP[raw]


def bigram_counts(sym):
    codes = sym[:-1].astype(np.int64) * 27 + sym[1:]
    return np.bincount(codes, minlength=27 * 27).reshape(27, 27)


def top_trigrams(sym, k):
    codes = (sym[:-2].astype(np.int64) * 27 + sym[1:-1]) * 27 + sym[2:]
    uniq, counts = np.unique(codes, return_counts=True)
    order = np.argsort(-counts, kind="stable")[:k]
    return uniq[order], counts[order]


def log_probs(counts):
    smoothed = counts + 1.0
    smoothed /= smoothed.sum(axis=1, keepdims=True)
    return np.log(smoothed)


def cross_entropy(logp, sym):
    total = 0.0
    for t in range(1, sym.shape[0]):
        total -= logp[sym[t - 1], sym[t]]
    return total / (sym.shape[0] - 1) / np.log(2.0)


def generate(logp, start, n, draws):
    cum = np.cumsum(np.exp(logp), axis=1)
    out = np.empty(n, dtype=np.uint8)
    cur = start
    for t in range(n):
        nxt = np.searchsorted(cum[cur], draws[t] * cum[cur, -1])
        cur = min(int(nxt), 26)
        out[t] = cur
    return out


def word_hashes(sym, table):
    h = np.uint32(2166136261)
    words = 0
    for s in sym:
        if s == 26:
            if h != np.uint32(2166136261):
                table[h % np.uint32(table.shape[0])] += 1
                words += 1
            h = np.uint32(2166136261)
        else:
            with np.errstate(over="ignore"):
                h = (h ^ np.uint32(s)) * np.uint32(16777619)
    return words


SYM = encode(TEXT)

CHECKS = {
    "encode": lambda: (OTHER,),
    "bigram_counts": lambda: (SYM,),
    "top_trigrams": lambda: (SYM, 5),
    "log_probs": lambda: (bigram_counts(SYM),),
    "cross_entropy": lambda: (log_probs(bigram_counts(SYM)), encode(OTHER)),
    "generate": lambda: (log_probs(bigram_counts(SYM)), 19, 30, np.random.default_rng(4).random(30)),
    "word_hashes": lambda: (SYM[:60], np.zeros(16, dtype=np.int64)),
}

if __name__ == "__main__":
    counts = bigram_counts(SYM)
    print("symbols", SYM.size, SYM.dtype, "distinct bigrams", int((counts > 0).sum()))
    codes, n = top_trigrams(SYM, 4)
    for c, k in zip(codes, n):
        print("".join(ALPHABET[[c // 729, c // 27 % 27, c % 27]]), k)
    logp = log_probs(counts)
    print("bits per char", cross_entropy(logp, encode(OTHER)), cross_entropy(logp, SYM))
    gen = generate(logp, 19, 40, np.random.default_rng(1).random(40))
    print("generated:", "".join(ALPHABET[gen]))
    table = np.zeros(32, dtype=np.int64)
    print("words", word_hashes(SYM, table), "buckets used", int((table > 0).sum()), table.max())
