#!/usr/bin/env python3
"""Build the lists of common words in Dictionaries/common/ (Hangman's computer
draws its secret words from them; the Ghost lists stay as they are).

Sources:

  en  /usr/share/dict/american-english-small   Debian package wamerican-small
      (SCOWL size 35), with SCOWL's own lists of Roman numerals and
      abbreviations from Debian package scowl (/usr/share/dict/scowl).
  nl  the Dutch frequency list of the PyPI package wordfreq (its "large"
      list, data file wordfreq/data/large_nl.msgpack.gz): the NL_TOP most
      frequent forms.

  apt-get install wamerican-small scowl       # as root
  pip install wordfreq==3.1.1                 # only to rebuild nl

Every entry goes through the Ghost lists' rules first, with the very same code
(scripts/build-dictionaries.py, read_words()/fold()): strip, drop entries with
an uppercase letter or an apostrophe, fold diacritics (NFKD, combining marks
removed), keep only ^[a-z]+$, merge duplicates. Then, for the common lists
only, an entry is dropped for the first of these rules it fails, and counted:

  7. "short":    fewer than MIN_LETTERS (3) letters. Both sources' one- and
                 two-letter entries are mostly letter names, abbreviations and
                 interjections (x, m, cc, ms; nl: b, km, uk, ov).
  8. "no vowel": no a, e, i, o, u or y: abbreviations and numerals
                 (rpm, xxv; nl: btw, pvc, tl).
  9. "numeral or abbreviation" (en): in SCOWL's special-roman-numerals.35 or
                 english-abbreviations.{10,20,35} and in none of the SCOWL
                 word lists that wamerican-small is made of (clxvii, xxiv,
                 sec, col; "mix" stays: it is also in english-words.10).
 10. "not in the Ghost list": not a word of Dictionaries/<lang>.txt. For en
                 this must be none (SCOWL 35 is part of SCOWL 50): the script
                 fails if one is found. For nl it is how the frequency list is
                 cut down to words (it has names, English and misspellings in
                 lowercase: amsterdam, the, zoiezo).

The result is sorted by byte order and written one word per line with LF, to
<output-dir>/<lang>.txt (default Dictionaries/common/). The script then reads
every output back and checks: the format (^[a-z]+$, sorted, unique, LF), and
that every word is in the language's Ghost list; it exits 1 if a check fails
and 2 if a source is missing. The output depends only on the inputs: re-running
it gives byte-identical files.

Uses only the Python 3 standard library, except that the nl list needs the
wordfreq package (imported only when nl is built: --lang en skips it).
"""

import argparse
import hashlib
import importlib.util
import os
import re
import sys

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DICTIONARIES = os.path.join(REPO_ROOT, "Dictionaries")
DEFAULT_OUTPUT_DIR = os.path.join(DICTIONARIES, "common")

EN_SOURCE = "/usr/share/dict/american-english-small"  # package wamerican-small
SCOWL_DIR = "/usr/share/dict/scowl"                    # package scowl
EN_LISTS_USED = "/usr/share/doc/wamerican-small/wamerican-small.scowl-word-lists-used"
EN_EXCLUDE_LISTS = ("special-roman-numerals.35", "english-abbreviations.10",
                    "english-abbreviations.20", "english-abbreviations.35")
WORDFREQ_VERSION = "3.1.1"
NL_TOP = 60000
MIN_LETTERS = 3
VOWELS = frozenset("aeiouy")
WORD_RE = re.compile(r"^[a-z]+$")


def load_ghost_rules():
    """The Ghost lists' own script, so that the rules are the same code."""
    path = os.path.join(REPO_ROOT, "scripts", "build-dictionaries.py")
    spec = importlib.util.spec_from_file_location("build_dictionaries", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 16), b""):
            h.update(block)
    return h.hexdigest()


def read_ghost_list(lang):
    with open(os.path.join(DICTIONARIES, lang + ".txt"), encoding="ascii") as f:
        return set(f.read().split())


def common_filter(words, lang, ghost, stats, excluded=frozenset()):
    """Rules 7-10 on words that passed the Ghost rules; returns sorted words."""
    for key in ("short", "no_vowel", "numeral_or_abbreviation", "not_in_ghost"):
        stats.setdefault(key, 0)
    kept = []
    for w in words:
        if len(w) < MIN_LETTERS:
            stats["short"] += 1
        elif not VOWELS.intersection(w):
            stats["no_vowel"] += 1
        elif w in excluded:
            stats["numeral_or_abbreviation"] += 1
        elif w not in ghost:
            stats["not_in_ghost"] += 1
        else:
            kept.append(w)
    kept.sort()
    stats["written"] = len(kept)
    return kept


def scowl_words(name):
    with open(os.path.join(SCOWL_DIR, name), encoding="utf-8") as f:
        return {line.strip() for line in f}


def build_en(rules, ghost):
    """wamerican-small through the Ghost rules, then rules 7-10."""
    words, stats = rules.read_words(EN_SOURCE)
    ghost_written = stats.pop("written")
    stats["after_ghost_rules"] = ghost_written
    with open(EN_LISTS_USED, encoding="ascii") as f:
        used = [line.strip() for line in f if re.match(r"^\s+\S+\.\d+$", line)]
    word_lists = set()
    for name in used:
        if "-words." in name:
            word_lists |= scowl_words(name)
    excluded = set()
    for name in EN_EXCLUDE_LISTS:
        excluded |= scowl_words(name) - word_lists
    kept = common_filter(words, "en", ghost, stats, frozenset(excluded))
    if stats["not_in_ghost"]:
        missing = [w for w in words if w not in ghost][:10]
        sys.exit("build-hangman-words: en words not in Dictionaries/en.txt "
                 "(SCOWL 35 should be part of SCOWL 50): %s" % missing)
    sources = [(EN_SOURCE, sha256(EN_SOURCE))] + [
        (os.path.join(SCOWL_DIR, n), sha256(os.path.join(SCOWL_DIR, n))) for n in EN_EXCLUDE_LISTS]
    return kept, stats, sources


def build_nl(rules, ghost):
    """wordfreq's NL_TOP most frequent Dutch forms, Ghost rules, rules 7-10."""
    try:
        import wordfreq
        from importlib.metadata import version
    except ImportError:
        print("build-hangman-words: nl needs the wordfreq package: "
              "pip install wordfreq==%s" % WORDFREQ_VERSION, file=sys.stderr)
        sys.exit(2)
    if version("wordfreq") != WORDFREQ_VERSION:
        print("build-hangman-words: warning: wordfreq %s, the committed list "
              "was built with %s" % (version("wordfreq"), WORDFREQ_VERSION), file=sys.stderr)
    data = os.path.join(os.path.dirname(wordfreq.__file__), "data", "large_nl.msgpack.gz")
    top = wordfreq.top_n_list("nl", NL_TOP, wordlist="large")
    # The Ghost rules read a file: hand them the ranked forms as one.
    tmp = os.path.join(DEFAULT_OUTPUT_DIR, ".wordfreq-nl.tmp")
    os.makedirs(DEFAULT_OUTPUT_DIR, exist_ok=True)
    with open(tmp, "w", encoding="utf-8", newline="\n") as f:
        for w in top:
            f.write(w + "\n")
    try:
        words, stats = rules.read_words(tmp)
    finally:
        os.remove(tmp)
    stats["after_ghost_rules"] = stats.pop("written")
    kept = common_filter(words, "nl", ghost, stats)
    return kept, stats, [(data, sha256(data))]


def check(path, ghost):
    """Read an output back: format and subset of the Ghost list."""
    with open(path, "rb") as f:
        data = f.read()
    problems = []
    if not data.endswith(b"\n"):
        problems.append("no LF at the end")
    lines = data.decode("ascii").split("\n")[:-1]
    for i, w in enumerate(lines):
        if not WORD_RE.match(w):
            problems.append("line %d is not a-z: %r" % (i + 1, w))
        elif w not in ghost:
            problems.append("line %d is not in the Ghost list: %r" % (i + 1, w))
        if i and lines[i - 1] >= w:
            problems.append("line %d is out of order or repeated: %r" % (i + 1, w))
    return len(lines), problems[:10]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lang", choices=("en", "nl"), action="append",
                        help="build only this language (repeatable; default both)")
    parser.add_argument("--output-dir", default=DEFAULT_OUTPUT_DIR)
    args = parser.parse_args(argv)
    langs = args.lang or ["en", "nl"]
    missing = [p for p in [EN_SOURCE, SCOWL_DIR, EN_LISTS_USED] if "en" in langs and not os.path.exists(p)]
    if missing:
        print("build-hangman-words: missing %s; install the packages: "
              "apt-get install wamerican-small scowl" % ", ".join(missing), file=sys.stderr)
        return 2
    rules = load_ghost_rules()
    os.makedirs(args.output_dir, exist_ok=True)
    failed = False
    for lang in langs:
        ghost = read_ghost_list(lang)
        kept, stats, sources = (build_en if lang == "en" else build_nl)(rules, ghost)
        target = os.path.join(args.output_dir, lang + ".txt")
        rules.write_lines(target, kept)
        count, problems = check(target, ghost)
        print("%s: %s" % (lang, target))
        for path, digest in sources:
            print("  source %s sha256 %s" % (path, digest))
        for key, value in stats.items():
            print("  %-24s %d" % (key, value))
        print("  output sha256 %s, %d words" % (sha256(target), count))
        for p in problems:
            print("  CHECK FAILED: %s" % p, file=sys.stderr)
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
