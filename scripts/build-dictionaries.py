#!/usr/bin/env python3
"""Build ghostd's word and phrase lists in Dictionaries/ from Debian packages.

Sources (Debian packages; install with
`apt-get install wamerican wdutch wordnet-base`):

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

Phrase lists for Hangman
------------------------

The same run (unless --no-phrases; --phrases-only builds only these) writes
<output-dir>/phrases/en.txt and <output-dir>/phrases/nl.txt: one lowercase
phrase per line, sorted by byte order, unique, LF line ends. Sources:

  en  /usr/share/wordnet/{data,index}.{noun,verb,adj,adv}
                                         package wordnet-base (WordNet 3.0)
  nl  /usr/share/dict/dutch              package wdutch (OpenTaal)

Every phrase is normalised the same way: U+2019 is folded to an apostrophe,
diacritics are folded (NFKD, combining marks removed), letters lowercased,
runs of spaces collapsed, ends stripped. The result must match
^[a-z]+(['\- ][a-z]+)*$: letters a-z in words separated by single spaces,
apostrophes or hyphens (shown to the player, never guessed), never at either
end. A "word" below is a space-separated word; "letters" counts only a-z.

English. The candidates are the multi-word lemmas (with "_") of all four
WordNet data.* files, grouped by their lowercase spelling, each with its
senses (synsets). A candidate is dropped for the first rule it fails:

   1. proper       every sense is spelled with a capital letter (a proper
                   name, "Lake_Michigan"; WordNet capitalises proper nouns)
   2. characters   the normalised phrase does not match the pattern above
   3. typo         a WordNet typing error ("give-up_the_ghost")
   4. words        not 2-4 words
   5. letters      not 6-24 letters
   6. placeholder  a word is one's, oneself, someone(')s, somebody('s)
                   ("lose one's temper" is a template, not a phrase)
   7. uncommon     a word, each part of a hyphenated word, and each word
                   without a final 's, must be in the English word list (the
                   words of en.txt, SCOWL size 50): no Latin binomials, no
                   rare jargon
   8. blocklist    a word is in PHRASE_BLOCKLIST["en"] (swearing, insults,
                   sex, drugs and drink, violence and weapons, death)
   9. sensitive    any sense has a usage domain in BLOCKED_USAGES (obscenity,
                   ethnic slur, disparagement, vulgarism, slang, trade name,
                   trademark) or a topic in BLOCKED_TOPICS (terrorism, crime),
                   or its definition (gloss without the quoted examples)
                   matches SENSITIVE_GLOSS_RE (sex, drugs, bodily functions,
                   killing and death, race, nudity, "offensive")
  10. taxonomy     any sense's gloss names a taxon ("genus Canis", "family
                   X", "species", "a member of the genus ...") or matches
                   CHEMISTRY_GLOSS_RE (chemical, compound, acid, ...)
  11. jargon       at least half of the senses have a definition matching
                   JARGON_GLOSS_RE (medicine and anatomy, mathematics,
                   physics, legal procedure)
  12. technical    every sense is in a taxonomy/technical lexicographer file
                   (TECHNICAL_LEXFILES: noun.animal, noun.plant,
                   noun.substance, noun.phenomenon, noun.process) or has a
                   technical topic domain (TECHNICAL_TOPICS: chemistry,
                   physics, medicine, law, ...)
  13. pertainym    a word is only a relational adjective in WordNet (lexfile
                   adj.pert only: "cardiac", "vertebral", "renal")
  14. paraphrase   "in/to/with a(n)/the ... manner/way/fashion/degree/extent"
  15. rare         kept only if common or an idiom: the lemma's tagsense_cnt
                   in index.* (how often its senses are tagged in the SemCor
                   corpus, summed over parts of speech) is at least 1; or it
                   has 3+ words or 2+ senses and one sense that is not
                   technical (rule 12) is figurative: its definition uses
                   none of the phrase's own words, compared on their first
                   five letters, ignoring glue words (a, the, of, in, ...):
                   "piece of cake" = "any undertaking that is easy to do",
                   but not "angle of refraction" = "the angle between a
                   refracted ray and ..."
  16. duplicate    the same phrase as an earlier lemma

Dutch. The candidates are the wdutch entries that contain a space. An entry
is dropped for the first rule it fails: uppercase (any uppercase letter:
names), digits, characters (the pattern above; this drops "'s avonds", "et
al.", "gas- en lichtrekening"), words (not 2-4 words), blocklist (a word in
PHRASE_BLOCKLIST["nl"]), duplicate (the same phrase after folding). Dutch
entries have no letter-count limit.

After writing, each phrase file is read back and checked: ASCII, LF line
ends, sorted and unique, and every line matches the pattern above and has a
space. The script reports the counts per rule. --phrase-log FILE writes
every candidate with the rule that dropped it (or KEEP).

Exit status: 0 on success, 1 if a written phrase file fails the check, 2 if
a source file is missing or unreadable.
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


# ---------------------------------------------------------------------------
# Phrase lists (Hangman): Dictionaries/phrases/<lang>.txt
# ---------------------------------------------------------------------------

DEFAULT_WORDNET_DIR = "/usr/share/wordnet"  # package wordnet-base
WORDNET_POS = ("noun", "verb", "adj", "adv")
WORDNET_FILE_OF = {"n": "noun", "v": "verb", "a": "adj", "s": "adj",
                   "r": "adv"}

# WordNet's lexicographer files (lexnames(5WN)), by number.
LEXNAMES = (
    "adj.all", "adj.pert", "adv.all", "noun.Tops", "noun.act", "noun.animal",
    "noun.artifact", "noun.attribute", "noun.body", "noun.cognition",
    "noun.communication", "noun.event", "noun.feeling", "noun.food",
    "noun.group", "noun.location", "noun.motive", "noun.object",
    "noun.person", "noun.phenomenon", "noun.plant", "noun.possession",
    "noun.process", "noun.quantity", "noun.relation", "noun.shape",
    "noun.state", "noun.substance", "noun.time", "verb.body", "verb.change",
    "verb.cognition", "verb.communication", "verb.competition",
    "verb.consumption", "verb.contact", "verb.creation", "verb.emotion",
    "verb.motion", "verb.perception", "verb.possession", "verb.social",
    "verb.stative", "verb.weather", "adj.ppl",
)

PHRASE_RE = re.compile(r"^[a-z]+(['\- ][a-z]+)*$")
PHRASE_MIN_WORDS, PHRASE_MAX_WORDS = 2, 4
PHRASE_MIN_LETTERS, PHRASE_MAX_LETTERS = 6, 24
PLACEHOLDER_WORDS = frozenset(
    "one's oneself someone someone's somebody somebody's".split())
PHRASE_GLUE_WORDS = frozenset(
    "a an the of in on at to by for from with and or as into onto upon "
    "out up off over under down like all no".split())
# WordNet 3.0 lemmas that are typing errors (a hyphen for an underscore).
WORDNET_TYPOS = frozenset({"give-up_the_ghost", "have-to_doe_with"})
PARAPHRASE_RE = re.compile(
    r"^(in|to|with) (a|an|the) [a-z' -]+ (manner|way|fashion|degree|extent)$")

# Lexicographer files whose senses count as taxonomy or technical.
TECHNICAL_LEXFILES = frozenset({
    "noun.animal", "noun.plant", "noun.substance", "noun.phenomenon",
    "noun.process",
})
# Topic domains (";c" pointers) that mark a sense as technical jargon.
TECHNICAL_TOPICS = frozenset("""
    anatomy astronomy biochemistry biology botany chemistry computer
    computer_science cosmology electronics genetics geology law
    mathematics medicine microbiology molecular_biology pathology
    pharmacology physics physiology psychiatry psychoanalysis
    statistics zoology
""".split())
# Gloss patterns for taxonomy (Linnaean names) and chemistry.
TAXONOMY_GLOSS_RE = re.compile(
    r"\b(genus|genera|family|subfamily|order|suborder|class|subclass|"
    r"phylum|species|subspecies|tribe) [A-Z]|\bspecies\b|"
    r"\ba member of (the |a |an )?([A-Z]|genus|family|order|class|species)")
CHEMISTRY_GLOSS_RE = re.compile(
    r"\b(chemical|chemistry|compound|acid|ester|molecule|molecular|atom|"
    r"atomic|enzyme|protein|alkaloid|hydrocarbon|oxide|polymer|ion|ions|"
    r"isotope|amino)\b")
# Gloss words of medicine, anatomy, mathematics and physics jargon.
JARGON_GLOSS_RE = re.compile(
    r"\b(disease|diseases|disorder|syndrome|infection|infectious|"
    r"inflammation|tumor|cancer|carcinoma|symptom|symptoms|pathology|"
    r"artery|arteries|vein|veins|nerve|nerves|neuron|neurons|muscle|"
    r"muscles|tissue|tissues|gland|glands|cavity|ventricle|lymph\w*|"
    r"membrane|cartilage|vertebra\w*|bone|bones|"
    r"variable|variables|exponent|integer|integers|vector|vectors|matrix|"
    r"derivative|theorem|axiom|coordinate|coordinates|equation|"
    r"equations|mathematics|mathematical|physics|electron|electrons|"
    r"radiation|wavelength|particle|particles|thermodynamics|refraction|"
    r"refracted|viscosity|elasticity|Gestalt|neural|embolism|bloodstream|"
    r"plaintiff|defendant|statute|statutory|lawsuit|litigation|"
    r"jurisdiction|indictment|felony|tort|liability)\b")
# Usage domains (";u" pointers) that rule a sense out.
BLOCKED_USAGES = frozenset(
    "obscenity ethnic_slur disparagement vulgarism slang trade_name "
    "trademark".split())
# Topic domains that rule a sense out (not family-friendly).
BLOCKED_TOPICS = frozenset("terrorism crime criminal_law".split())
# Gloss words that rule a sense out (sex, drugs, violence, bodily functions).
SENSITIVE_GLOSS_RE = re.compile(
    r"\b(sex|sexual|sexually|intercourse|copulat\w*|genital\w*|penis|"
    r"vagina|erotic|masturbat\w*|orgasm|prostitut\w*|obscene|vulgar|"
    r"drug|drugs|drugged|narcotic\w*|marijuana|cannabis|cocaine|heroin|"
    r"intoxicat\w*|defecat\w*|excrement|feces|urinat\w*|bowel|"
    r"kill|killing|killed|murder\w*|suicide|torture|rape|execution|"
    r"crime|crimes|criminal|terror\w*|provocative|dead|death|corpse|"
    r"races|racial|racist|ethnic|Black|Blacks|White|Whites|Negro|"
    r"whore\w*|pimp|ponce|urine|seductiv\w*|unclothed|naked|nude|"
    r"offensive|derogatory|disparag\w*|not married|cohabit\w*|"
    r"contracepti\w*|ovulation|sleep together)\b")

# Words a phrase must not contain (not family-friendly: swearing, insults,
# sex, drugs and drink, violence and weapons, death).
PHRASE_BLOCKLIST = {
    "en": frozenset("""
        abortion arse ass asses bitch bloody bomb bombs booze bugger butt
        cock concentration crap crime cunt damn damned death dick dildo drug
        drugs drunk fag faggot fuck fucked fucking gay grenade grievous gun
        guns hell heroin homo horny kill killed killer killing knockers
        lesbian missile missiles murder nazi negro nigger opium orgasm penis
        piss pissed porn prick pussy queer rape retarded screw sex sexual
        shit slave slaves slut suicide tart terror terrorism tit tits turd
        twat vagina warfare whore
    """.split()),
    # Dutch: coitus, sex, abortus, cannabis, "cold turkey" (withdrawal),
    # "bloody mary", "crime passionnel", "rigor mortis".
    "nl": frozenset("""
        abortus bloody cannabis coitus crime mortis sex turkey
    """.split()),
}


def clean_phrase(raw):
    """Normalise one source phrase; return it, or None if it is unusable.

    Folds diacritics, folds U+2019 to an apostrophe, lowercases, collapses
    runs of spaces and strips the ends; the result must match PHRASE_RE.
    """
    text = fold(raw.replace("\u2019", "'")).lower()
    text = " ".join(text.split())
    return text if PHRASE_RE.match(text) else None


def phrase_words(phrase):
    """The space-separated words of a phrase."""
    return phrase.split(" ")


def phrase_letters(phrase):
    """How many a-z letters a phrase has (the ones the player guesses)."""
    return sum(c.isalpha() for c in phrase)


def read_wordnet(wordnet_dir):
    """Parse WordNet's data.* and index.* files.

    Returns (lemmas, tagsense, word_lexfiles). lemmas maps each lowercase
    multi-word lemma (with "_") to its senses, one per synset it occurs in,
    each a dict with the lemma's spelling there, pos, lexfile, gloss and the
    names of its usage (";u") and topic (";c") domains. tagsense maps
    (lemma, pos) to the index file's tagsense_cnt. word_lexfiles maps each
    lowercase single-word lemma to the set of its lexicographer files.
    """
    synsets = {}  # (file pos, offset) -> (lemmas, lexfile, gloss, pointers)
    for pos in WORDNET_POS:
        path = os.path.join(wordnet_dir, "data." + pos)
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.startswith("  "):  # licence header
                    continue
                head, _, gloss = line.partition(" | ")
                fields = head.split()
                offset, lexfile = fields[0], LEXNAMES[int(fields[1])]
                w_cnt = int(fields[3], 16)
                words = [fields[4 + 2 * i] for i in range(w_cnt)]
                at = 4 + 2 * w_cnt
                p_cnt = int(fields[at])
                ptrs = [(fields[at + 1 + 4 * i], fields[at + 3 + 4 * i],
                         fields[at + 2 + 4 * i]) for i in range(p_cnt)]
                synsets[(pos, offset)] = (words, lexfile, gloss.strip(), ptrs)

    def synset_name(ptr_pos, offset):
        return synsets[(WORDNET_FILE_OF[ptr_pos], offset)][0][0]

    lemmas = {}
    word_lexfiles = {}  # lowercase single-word lemma -> its lexfiles
    for (pos, _offset), (words, lexfile, gloss, ptrs) in synsets.items():
        for w in words:
            w = re.sub(r"\((a|p|ip)\)$", "", w).lower()
            if "_" not in w:
                word_lexfiles.setdefault(w, set()).add(lexfile)
        multi = [re.sub(r"\((a|p|ip)\)$", "", w) for w in words]
        multi = [w for w in multi if "_" in w]
        if not multi:
            continue
        usages = {synset_name(p, o) for s, p, o in ptrs if s == ";u"}
        topics = {synset_name(p, o) for s, p, o in ptrs if s == ";c"}
        for spelling in multi:
            lemmas.setdefault(spelling.lower(), []).append({
                "spelling": spelling, "pos": pos, "lexfile": lexfile,
                "gloss": gloss, "usages": usages, "topics": topics,
            })

    tagsense = {}
    for pos in WORDNET_POS:
        path = os.path.join(wordnet_dir, "index." + pos)
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.startswith("  "):
                    continue
                fields = line.split()
                p_cnt = int(fields[3])
                tagsense[(fields[0], pos)] = int(fields[5 + p_cnt])
    return lemmas, tagsense, word_lexfiles


def definition(gloss):
    """A gloss without its quoted example sentences."""
    return re.sub(r'"[^"]*"?', " ", gloss)


def is_figurative(sense, ws):
    """Whether a sense's definition uses none of the phrase's own words.

    A compositional phrase is defined with its own words ("department of
    history": "the academic department responsible for teaching history");
    an idiom is not ("piece of cake": "any undertaking that is easy to do").
    Words match on their first five letters, so "refraction" matches
    "refracted"; glue words (of, the, ...) are ignored.
    """
    content = [w for w in ws if w not in PHRASE_GLUE_WORDS]
    tokens = re.findall(r"[a-z]+", definition(sense["gloss"]).lower())
    for w in content:
        for part in w.replace("'", "-").split("-"):
            stem = part[:5]
            if len(part) > 2 and any(t.startswith(stem) for t in tokens):
                return False
    return True


def is_technical(sense):
    """Whether a sense is in a taxonomy/technical lexfile or topic domain."""
    return (sense["lexfile"] in TECHNICAL_LEXFILES
            or bool(sense["topics"] & TECHNICAL_TOPICS))


def english_phrase_rule(lemma, senses, tagsense, words, phrase,
                        word_lexfiles):
    """The first rule an English candidate fails, or None to keep it."""
    if not any(s["spelling"] == lemma for s in senses):
        return "proper"
    if phrase is None:
        return "characters"
    if lemma in WORDNET_TYPOS:
        return "typo"
    ws = phrase_words(phrase)
    if not PHRASE_MIN_WORDS <= len(ws) <= PHRASE_MAX_WORDS:
        return "words"
    if not PHRASE_MIN_LETTERS <= phrase_letters(phrase) <= PHRASE_MAX_LETTERS:
        return "letters"
    if any(w in PLACEHOLDER_WORDS for w in ws):
        return "placeholder"
    parts = [p for w in ws for p in w.split("-")]
    stems = [p[:-2] if p.endswith("'s") else p for p in parts]
    if not all(p in words for p in stems):
        return "uncommon"
    if any(p in PHRASE_BLOCKLIST["en"] for p in stems):
        return "blocklist"
    if any(s["usages"] & BLOCKED_USAGES or s["topics"] & BLOCKED_TOPICS
           or SENSITIVE_GLOSS_RE.search(definition(s["gloss"]))
           for s in senses):
        return "sensitive"
    if any(TAXONOMY_GLOSS_RE.search(s["gloss"])
           or CHEMISTRY_GLOSS_RE.search(s["gloss"]) for s in senses):
        return "taxonomy"
    jargon = sum(bool(JARGON_GLOSS_RE.search(definition(s["gloss"])))
                 for s in senses)
    if 2 * jargon >= len(senses):
        return "jargon"
    if all(is_technical(s) for s in senses):
        return "technical"
    if any(word_lexfiles.get(p) == {"adj.pert"} for p in stems):
        return "pertainym"
    if PARAPHRASE_RE.match(phrase):
        return "paraphrase"
    frequency = sum(tagsense.get((lemma, pos), 0) for pos in WORDNET_POS)
    idiom = ((len(ws) >= 3 or len(senses) >= 2)
             and any(not is_technical(s) and is_figurative(s, ws)
                     for s in senses))
    if frequency < 1 and not idiom:
        return "rare"
    return None


def build_phrases_en(wordnet_dir, words, log=None):
    """English phrases from WordNet; returns (sorted phrases, stats).

    If log is a file, writes "<rule or KEEP>\t<lemma>" for every candidate.
    """
    lemmas, tagsense, word_lexfiles = read_wordnet(wordnet_dir)
    stats = {"candidates": len(lemmas)}
    kept = set()
    for lemma, senses in sorted(lemmas.items()):
        phrase = clean_phrase(lemma.replace("_", " "))
        rule = english_phrase_rule(lemma, senses, tagsense, words, phrase,
                                   word_lexfiles)
        if rule is None and phrase in kept:
            rule = "duplicate"
        stats[rule or "written"] = stats.get(rule or "written", 0) + 1
        if rule is None:
            kept.add(phrase)
        if log:
            log.write(f"en\t{rule or 'KEEP'}\t{lemma}\n")
    return sorted(kept), stats


def build_phrases_nl(source, log=None):
    """Dutch phrases from the wdutch list; returns (sorted phrases, stats).

    If log is a file, writes "<rule or KEEP>\t<entry>" for every candidate.
    """
    stats = {"candidates": 0}
    kept = set()
    with open(source, encoding="utf-8") as f:
        for line in f:
            entry = line.strip()
            if " " not in entry:
                continue  # a single word, not a phrase candidate
            stats["candidates"] += 1
            phrase = clean_phrase(entry)
            if any(c.isupper() for c in entry):
                rule = "uppercase"
            elif any(c.isdigit() for c in entry):
                rule = "digits"
            elif phrase is None:
                rule = "characters"
            elif not (PHRASE_MIN_WORDS <= len(phrase_words(phrase))
                      <= PHRASE_MAX_WORDS):
                rule = "words"
            elif any(p in PHRASE_BLOCKLIST["nl"]
                     for w in phrase_words(phrase) for p in w.split("-")):
                rule = "blocklist"
            elif phrase in kept:
                rule = "duplicate"
            else:
                rule = None
                kept.add(phrase)
            stats[rule or "written"] = stats.get(rule or "written", 0) + 1
            if log:
                log.write(f"nl\t{rule or 'KEEP'}\t{entry}\n")
    return sorted(kept), stats


EN_PHRASE_STAT_LABELS = (
    ("candidates", "multi-word WordNet lemmas"),
    ("proper", "dropped: proper name (capitalised)"),
    ("characters", "dropped: other characters"),
    ("typo", "dropped: WordNet typing error"),
    ("words", "dropped: not 2-4 words"),
    ("letters", "dropped: not 6-24 letters"),
    ("placeholder", "dropped: placeholder (one's, ...)"),
    ("uncommon", "dropped: word not in en.txt"),
    ("blocklist", "dropped: blocklisted word"),
    ("sensitive", "dropped: sensitive sense"),
    ("taxonomy", "dropped: taxonomy/chemistry gloss"),
    ("jargon", "dropped: medical/maths/physics gloss"),
    ("technical", "dropped: technical senses only"),
    ("pertainym", "dropped: relational adjective"),
    ("paraphrase", "dropped: adverbial paraphrase"),
    ("rare", "dropped: rare and not an idiom"),
    ("duplicate", "duplicates after folding"),
    ("written", "phrases written"),
)
NL_PHRASE_STAT_LABELS = (
    ("candidates", "entries with a space"),
    ("uppercase", "dropped: uppercase"),
    ("digits", "dropped: digits"),
    ("characters", "dropped: other characters"),
    ("words", "dropped: not 2-4 words"),
    ("blocklist", "dropped: blocklisted word"),
    ("duplicate", "duplicates after folding"),
    ("written", "phrases written"),
)
INSTALL_HINT = "apt-get install wamerican wdutch wordnet-base"


class PhraseCheckError(Exception):
    """A written phrase file failed the sanity check."""


def check_phrase_file(path):
    """Re-read a written phrase file and check it; return its line count.

    Every line must match PHRASE_RE and contain a space, the file must be
    ASCII with LF line ends, sorted by byte order and without duplicates.
    Raises PhraseCheckError on the first problem.
    """
    with open(path, "rb") as f:
        data = f.read()
    if data and not data.endswith(b"\n"):
        raise PhraseCheckError(f"{path}: last line has no LF")
    try:
        lines = data.decode("ascii").split("\n")[:-1] if data else []
    except UnicodeDecodeError as exc:
        raise PhraseCheckError(f"{path}: not ASCII: {exc}") from exc
    for number, line in enumerate(lines, 1):
        if not PHRASE_RE.match(line) or " " not in line:
            raise PhraseCheckError(f"{path}:{number}: bad phrase {line!r}")
        if number > 1 and lines[number - 2] >= line:
            raise PhraseCheckError(f"{path}:{number}: not sorted or "
                                   "duplicate")
    return len(lines)


def print_stats(title, stats, labels):
    print(title)
    for key, label in labels:
        print(f"  {label:<36} {stats.get(key, 0):>8}")


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=(
            "Build Dictionaries/en.txt and Dictionaries/nl.txt (one lowercase "
            "a-z word per line, sorted, unique) from the Debian packages "
            "wamerican and wdutch, and the Hangman phrase lists "
            "Dictionaries/phrases/en.txt and nl.txt from wordnet-base and "
            "wdutch."
        ),
        epilog="Install the sources with: " + INSTALL_HINT,
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
        "--wordnet", metavar="DIR", default=DEFAULT_WORDNET_DIR,
        help="WordNet database folder for the English phrases (default: "
             "%(default)s, package wordnet-base)",
    )
    parser.add_argument(
        "--output-dir", metavar="DIR", default=DEFAULT_OUTPUT_DIR,
        help="directory for <lang>.txt; phrases go to its phrases/ "
             "subfolder (default: Dictionaries/ in the repo, i.e. "
             "%(default)s)",
    )
    parser.add_argument(
        "--phrase-log", metavar="FILE",
        help="also write every phrase candidate with the rule that dropped "
             "it (or KEEP) to FILE, one 'lang<TAB>rule<TAB>entry' per line",
    )
    which = parser.add_mutually_exclusive_group()
    which.add_argument(
        "--no-phrases", action="store_true",
        help="build only the word lists <lang>.txt",
    )
    which.add_argument(
        "--phrases-only", action="store_true",
        help="build only the phrase lists phrases/<lang>.txt",
    )
    args = parser.parse_args(argv)

    sources = {"en": args.en, "nl": args.nl}
    needed = list(sources.values())
    if not args.no_phrases:
        needed += [os.path.join(args.wordnet, kind + "." + pos)
                   for kind in ("data", "index") for pos in WORDNET_POS]
    missing = [p for p in needed if not os.path.isfile(p)]
    if missing:
        for path in missing:
            print(f"error: source file not found: {path}", file=sys.stderr)
        print("Install the source packages with: " + INSTALL_HINT,
              file=sys.stderr)
        return 2
    if not os.path.isdir(args.output_dir):
        print(f"error: output directory not found: {args.output_dir}",
              file=sys.stderr)
        return 2

    try:
        if not args.phrases_only:
            for lang, source in sources.items():
                build_words(lang, source, args.output_dir)
        if not args.no_phrases:
            build_phrase_lists(args)
    except PhraseCheckError as exc:
        print(f"error: sanity check failed: {exc}", file=sys.stderr)
        return 1
    except (OSError, UnicodeDecodeError, ValueError, IndexError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        print("Reinstall the source packages with: apt-get install "
              "--reinstall " + INSTALL_HINT.split(" ", 2)[2], file=sys.stderr)
        return 2
    return 0


def build_words(lang, source, output_dir):
    """Build and report one word list <output_dir>/<lang>.txt."""
    try:
        target, s = build(lang, source, output_dir)
    except (OSError, UnicodeDecodeError) as exc:
        raise OSError(f"cannot read {source}: {exc}") from exc
    print(f"{lang}: {source} -> {os.path.relpath(target)}")
    print(f"  raw lines read                 {s['raw']:>8}")
    print(f"  dropped: uppercase             {s['uppercase']:>8}")
    print(f"  dropped: apostrophe            {s['apostrophe']:>8}")
    print(f"  dropped: non-letter (folded)   {s['nonletter']:>8}")
    print(f"  duplicates merged by folding   {s['fold_dup']:>8}")
    print(f"  exact duplicate lines          {s['exact_dup']:>8}")
    print(f"  words written                  {s['written']:>8}")


def build_phrase_lists(args):
    """Build, write, re-check and report phrases/en.txt and phrases/nl.txt."""
    phrase_dir = os.path.join(args.output_dir, "phrases")
    os.makedirs(phrase_dir, exist_ok=True)
    en_words = frozenset(read_words(args.en)[0])  # the words of en.txt
    log = open(args.phrase_log, "w", encoding="utf-8") if args.phrase_log \
        else None
    try:
        en_phrases, en_stats = build_phrases_en(args.wordnet, en_words, log)
        nl_phrases, nl_stats = build_phrases_nl(args.nl, log)
    finally:
        if log:
            log.close()
    for lang, phrases, stats, labels, source in (
            ("en", en_phrases, en_stats, EN_PHRASE_STAT_LABELS, args.wordnet),
            ("nl", nl_phrases, nl_stats, NL_PHRASE_STAT_LABELS, args.nl)):
        target = os.path.join(phrase_dir, lang + ".txt")
        write_lines(target, phrases)
        checked = check_phrase_file(target)  # sanity check of the output
        if checked != stats["written"]:
            raise PhraseCheckError(f"{target}: {checked} lines, expected "
                                   f"{stats['written']}")
        print_stats(f"phrases {lang}: {source} -> {os.path.relpath(target)}"
                    f" (checked: {checked} lines)", stats, labels)


if __name__ == "__main__":
    sys.exit(main())
