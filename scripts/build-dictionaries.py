#!/usr/bin/env python3
"""Build the ghostd word lists in Dictionaries/ from Debian word-list packages.

Sources (Debian packages; install with `apt-get install wamerican wdutch`):

  en  /usr/share/dict/american-english   package wamerican (SCOWL size 50)
  nl  /usr/share/dict/dutch              package wdutch (OpenTaal)

Every source line is processed as follows; a line is dropped for the first
rule it fails, and counted under that reason:

  1. Strip leading/trailing whitespace.
  2. Drop it if it contains any uppercase letter (proper nouns, acronyms,
     capitalised entries).                                  -> "uppercase"
  3. Drop it if it contains an apostrophe (' or U+2019), i.e. possessives
     and contractions such as "peafowl's" or "accu's".      -> "apostrophe"
  4. Fold diacritics: Unicode NFKD, then remove combining marks
     ("ideeën" -> "ideeen", "café" -> "cafe", "ĳ" -> "ij").
  5. Keep it only if the folded word matches ^[a-z]+$ (drops digits,
     hyphens, spaces, empty lines and anything else).      -> "non-letter"

The kept words are de-duplicated (several source entries may fold to the same
word), sorted by byte order and written one per line, each followed by LF, to
<output-dir>/<lang>.txt. The output depends only on the input files, so
re-running the script gives byte-identical files.

Exit status: 0 on success, 2 if a source file is missing or unreadable.
"""

import argparse
import os
import re
import sys
import unicodedata

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_OUTPUT_DIR = os.path.join(REPO_ROOT, "Dictionaries")

DEFAULT_SOURCES = {
    "en": "/usr/share/dict/american-english",  # package wamerican
    "nl": "/usr/share/dict/dutch",             # package wdutch
}

APOSTROPHES = ("'", "\u2019")
WORD_RE = re.compile(r"^[a-z]+$")


def fold(word):
    """Fold diacritics to plain letters: NFKD, then drop combining marks."""
    decomposed = unicodedata.normalize("NFKD", word)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def read_words(source):
    """Read one source word list; return (sorted kept words, stats)."""
    stats = {
        "raw": 0,
        "uppercase": 0,
        "apostrophe": 0,
        "nonletter": 0,
        "exact_dup": 0,
        "fold_dup": 0,
        "written": 0,
    }
    words = {}  # folded word -> first source entry that produced it
    with open(source, encoding="utf-8") as f:
        for line in f:
            stats["raw"] += 1
            entry = line.strip()
            if any(c.isupper() for c in entry):
                stats["uppercase"] += 1
                continue
            if any(a in entry for a in APOSTROPHES):
                stats["apostrophe"] += 1
                continue
            word = fold(entry)
            if not WORD_RE.match(word):
                stats["nonletter"] += 1
                continue
            if word in words:
                if words[word] == entry:
                    stats["exact_dup"] += 1
                else:
                    stats["fold_dup"] += 1
                continue
            words[word] = entry

    ordered = sorted(words)  # ASCII only, so code-point order == byte order
    stats["written"] = len(ordered)
    return ordered, stats


def write_lines(target, lines):
    """Write lines (ASCII), each followed by LF, atomically via a .tmp file."""
    tmp = target + ".tmp"
    with open(tmp, "w", encoding="ascii", newline="\n") as out:
        for line in lines:
            out.write(line + "\n")
    os.replace(tmp, target)


def build(lang, source, output_dir):
    """Read one source list, write <output_dir>/<lang>.txt, return stats."""
    ordered, stats = read_words(source)
    target = os.path.join(output_dir, lang + ".txt")
    write_lines(target, ordered)
    return target, stats


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=(
            "Build Dictionaries/en.txt and Dictionaries/nl.txt (one lowercase "
            "a-z word per line, sorted, unique) from the Debian packages "
            "wamerican and wdutch."
        ),
        epilog="Install the sources with: apt-get install wamerican wdutch",
    )
    parser.add_argument(
        "--en", metavar="PATH", default=DEFAULT_SOURCES["en"],
        help="English source list (default: %(default)s, package wamerican)",
    )
    parser.add_argument(
        "--nl", metavar="PATH", default=DEFAULT_SOURCES["nl"],
        help="Dutch source list (default: %(default)s, package wdutch)",
    )
    parser.add_argument(
        "--output-dir", metavar="DIR", default=DEFAULT_OUTPUT_DIR,
        help="directory for <lang>.txt (default: Dictionaries/ in the repo, "
             "i.e. %(default)s)",
    )
    args = parser.parse_args(argv)

    sources = {"en": args.en, "nl": args.nl}
    missing = [p for p in sources.values() if not os.path.isfile(p)]
    if missing:
        for path in missing:
            print(f"error: source word list not found: {path}", file=sys.stderr)
        print("Install the source packages with: "
              "apt-get install wamerican wdutch", file=sys.stderr)
        return 2
    if not os.path.isdir(args.output_dir):
        print(f"error: output directory not found: {args.output_dir}",
              file=sys.stderr)
        return 2

    for lang, source in sources.items():
        try:
            target, s = build(lang, source, args.output_dir)
        except (OSError, UnicodeDecodeError) as exc:
            print(f"error: cannot read {source}: {exc}", file=sys.stderr)
            print("Reinstall the source packages with: "
                  "apt-get install --reinstall wamerican wdutch",
                  file=sys.stderr)
            return 2
        print(f"{lang}: {source} -> {os.path.relpath(target)}")
        print(f"  raw lines read                 {s['raw']:>8}")
        print(f"  dropped: uppercase             {s['uppercase']:>8}")
        print(f"  dropped: apostrophe            {s['apostrophe']:>8}")
        print(f"  dropped: non-letter (folded)   {s['nonletter']:>8}")
        print(f"  duplicates merged by folding   {s['fold_dup']:>8}")
        print(f"  exact duplicate lines          {s['exact_dup']:>8}")
        print(f"  words written                  {s['written']:>8}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
