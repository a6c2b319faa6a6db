# A small byte-level BPE tokenizer.json (GPT-2 style), trained here on a few sentences; 512 ids at most, as llama-tiny.
import json, collections
def bytes_to_unicode():
    bs = list(range(ord("!"), ord("~")+1))+list(range(ord("¡"), ord("¬")+1))+list(range(ord("®"), ord("ÿ")+1))
    cs = bs[:]; n = 0
    for b in range(256):
        if b not in bs: bs.append(b); cs.append(256+n); n += 1
    return dict(zip(bs, map(chr, cs)))
b2u = bytes_to_unicode()
corpus = open("corpus.txt", encoding="utf-8").read()
import re
pat = re.compile(r"""'s|'t|'re|'ve|'m|'ll|'d| ?[A-Za-z]+| ?[0-9]+| ?[^\sA-Za-z0-9]+|\s+""")
words = collections.Counter("".join(b2u[b] for b in w.encode()) for w in pat.findall(corpus))
vocab = {b2u[b]: i for i, b in enumerate(sorted(b2u))}
seqs = {w: list(w) for w in words}
merges = []
while len(vocab) < 510:
    pairs = collections.Counter()
    for w, c in words.items():
        s = seqs[w]
        for a, b in zip(s, s[1:]): pairs[(a, b)] += c
    if not pairs: break
    (a, b), n = pairs.most_common(1)[0]
    if n < 2: break
    merges.append(a + " " + b); vocab[a + b] = len(vocab)
    for w in seqs:
        s = seqs[w]; out = []; i = 0
        while i < len(s):
            if i + 1 < len(s) and s[i] == a and s[i+1] == b: out.append(a + b); i += 2
            else: out.append(s[i]); i += 1
        seqs[w] = out
eos = len(vocab); vocab["<|endoftext|>"] = eos
tok = {"version": "1.0", "truncation": None, "padding": None,
       "added_tokens": [{"id": eos, "content": "<|endoftext|>", "single_word": False, "lstrip": False, "rstrip": False,
                         "normalized": False, "special": True}],
       "normalizer": None,
       "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True},
       "post_processor": {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": False, "use_regex": True},
       "decoder": {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True, "use_regex": True},
       "model": {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": None,
                 "end_of_word_suffix": None, "fuse_unk": False, "byte_fallback": False, "vocab": vocab, "merges": merges}}
json.dump(tok, open("llama-tiny-bpe/tokenizer.json", "w"), ensure_ascii=False)
json.dump({"eos_token": "<|endoftext|>"}, open("llama-tiny-bpe/tokenizer_config.json", "w"))
print(len(vocab), "ids,", len(merges), "merges, eos", eos)
