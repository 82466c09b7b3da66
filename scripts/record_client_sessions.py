#!/usr/bin/env python3
"""Records real ghost-client sessions for the layout test (issue #44).

Starts a real ghostd on an ephemeral port (a fresh data folder, this tree's
Dictionaries, the tests' flags: no limits on stalling or new names), drives
real ghost-client processes in tmux, each with GHOST_CLIENT_RECORD set and a
fresh HOME and settings file, and copies each client's recording to
Tests/GhostClientTests/Recorded/<session>-<player>.events. The clients start
at 80×24 and are resized to 60×20 and back during play, so the recordings
hold resizes too. Every wait is for text on a screen (tmux capture-pane,
polled every 50 ms), never a fixed sleep.

Usage (from the repository root, after `swift build`):
    scripts/record-client-sessions.sh [session …]
Sessions: match (two people, English and Dutch, a bluff-and-challenge
match to G-H-O-S-T, 16-character names), computer (Ghost lost against the
hard computer, game over, h replay and review), hangman (evil against the
computer, a phrases game, a duel between two clients, ? rules and Tab
settings), watch (a third client watches a game with w), clock (a game on a
15 s clock whose time runs low). Default: all of them.

Keys: on the main menu only ↑/↓, Enter and the digits (and w, h, v, m, ←/→),
which keep their meaning while the menu's letters change."""
import os, re, shutil, socket, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Tests", "GhostClientTests", "Recorded")


def bin_dir():
    return subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True,
                          check=True).stdout.strip()


class Failure(Exception):
    pass


class Daemon:
    """A ghostd on a free port with a fresh data folder."""

    def __init__(self, bins):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        self.port = s.getsockname()[1]
        s.close()
        self.data = tempfile.mkdtemp(prefix="ghostd-record-")
        argv = [os.path.join(bins, "ghostd"), "--port", str(self.port), "--data", self.data,
                "--dictionaries", os.path.join(ROOT, "Dictionaries"),
                "--max-new-names-per-minute", "0", "--first-move-timeout", "0", "--move-timeout", "0"]
        self.proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while True:
            try:
                c = socket.create_connection(("127.0.0.1", self.port), timeout=1)
                assert c.makefile("rb").readline().startswith(b"HELLO ")
                c.close()
                break
            except OSError:
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    raise Failure("ghostd did not start")
                time.sleep(0.02)

    def stop(self):
        self.proc.terminate()
        self.proc.wait()
        shutil.rmtree(self.data, ignore_errors=True)


class Tmux:
    """A private tmux server (its own socket, no config file)."""

    def __init__(self):
        self.socket = "ghost-record-%d" % os.getpid()
        self.folder = tempfile.mkdtemp(prefix="ghost-record-")

    def run(self, *args, check=True):
        r = subprocess.run(["tmux", "-L", self.socket, "-f", "/dev/null", *args], capture_output=True, text=True)
        if check and r.returncode != 0:
            raise Failure("tmux %s: %s" % (" ".join(args), r.stderr))
        return r.stdout

    def kill(self):
        self.run("kill-server", check=False)
        shutil.rmtree(self.folder, ignore_errors=True)


class Client:
    """One ghost-client in its own tmux session, recording to a file."""

    def __init__(self, tmux, bins, port, label, extra=(), config=None, width=80, height=24):
        self.tmux, self.label = tmux, label
        self.home = os.path.join(tmux.folder, label)
        os.makedirs(self.home)
        self.record = os.path.join(self.home, "events")
        self.config = os.path.join(self.home, "config")
        if config:
            with open(self.config, "w") as f:
                f.write(config)
        command = "env HOME=%s GHOST_CLIENT_RECORD=%s NO_COLOR= TERM=xterm-256color %s --config %s %s 127.0.0.1:%d" % (
            self.home, self.record, os.path.join(bins, "ghost-client"), self.config, " ".join(extra), port)
        # remain-on-exit: the pane stays after the client exits, so its last screen can be read.
        tmux.run("new-session", "-d", "-s", label, "-x", str(width), "-y", str(height), command)
        tmux.run("set-option", "-t", label, "remain-on-exit", "on")

    def keys(self, *names):
        self.tmux.run("send-keys", "-t", self.label, *names)

    def type(self, text):
        self.tmux.run("send-keys", "-t", self.label, "-l", text)

    def screen(self):
        return self.tmux.run("capture-pane", "-p", "-t", self.label).split("\n")

    def text(self):
        return "\n".join(self.screen())

    def wait(self, what, timeout=30):
        """Waits until the screen shows `what` (a string, any of a tuple of
        strings, or a predicate over the screen's text); returns the screen."""
        if isinstance(what, str):
            test = lambda t: what in t
        elif isinstance(what, tuple):
            test = lambda t: any(w in t for w in what)
        else:
            test = what
        deadline = time.monotonic() + timeout
        while True:
            t = self.text()
            if test(t):
                return t
            if time.monotonic() > deadline:
                raise Failure("[%s] waited %s s for %r; the screen:\n%s" % (self.label, timeout, what, t))
            time.sleep(0.05)

    def resize(self, width, height):
        self.tmux.run("resize-window", "-t", self.label, "-x", str(width), "-y", str(height))
        self.wait(lambda t: len(t.split("\n")) >= height and self.size() == (width, height))

    def size(self):
        w, h = self.tmux.run("display-message", "-p", "-t", self.label, "#{pane_width} #{pane_height}").split()
        return int(w), int(h)

    def quit(self):
        """Ctrl-C, then Ctrl-C again once the quit question is shown; waits for the exit."""
        self.keys("C-c")
        self.wait(("Quit the program?", "Het programma stoppen?"))
        self.keys("C-c")
        self.wait(lambda t: self.tmux.run("display-message", "-p", "-t", self.label, "#{pane_dead}").strip() == "1")

    def save(self, name):
        os.makedirs(OUT, exist_ok=True)
        shutil.copyfile(self.record, os.path.join(OUT, name + ".events"))


# Screen texts, English and Dutch.
GHOST_TURN = ("Your turn: type a letter", "Jij bent aan de beurt: typ een letter")
HANGMAN_TURN = ("Your turn: guess a letter", "Jij bent aan de beurt: raad een letter")
OVER_MENU = ("Replay and review this game", "Dit spel terugkijken met analyse")


def first_start(c, name, dutch=False, pages=1):
    """The first start: the language (↑/↓, Enter), a few tutorial pages, the name."""
    c.wait("Kies je taal")
    c.keys(*(["Down", "Enter"] if dutch else ["Enter"]))
    c.wait(("How to play (1/", "Zo speel je (1/"))
    for _ in range(pages - 1):
        c.keys("Right")
    c.keys("Escape")
    c.wait(("Name: _", "Naam: _"))
    type_name(c, name)
    c.keys("Enter")
    c.wait(("Playing as " + name, "Je speelt als " + name))


def type_name(c, name):
    """Types a name one key at a time, as a person does (each key once the
    one before is on the screen; typed at once, it would be a paste)."""
    for i, ch in enumerate(name):
        c.type(ch)
        c.wait(("Name: " + name[:i + 1] + "_", "Naam: " + name[:i + 1] + "_"))


def private_code(c):
    """Opens a private game (main menu 3) and returns its code."""
    c.keys("3")
    s = c.wait(lambda t: re.search(r"\n\s*[A-Z0-9]( [A-Z0-9]){7}\s*\n", t))
    return re.search(r"\n\s*([A-Z0-9]( [A-Z0-9]){7})\s*\n", s).group(1).replace(" ", "")


def join(c, code):
    c.keys("4")
    c.wait(("Code: _",))
    c.type(code.lower())
    c.keys("Enter")


def fragment_shown(c, fragment):
    return c.wait("“%s”" % fragment.upper())


def play_word(first, second, word, last_loses=True):
    """`first` and `second` take turns typing the letters of `word`, each
    letter once the fragment so far is on both screens."""
    players = [first, second]
    for i, letter in enumerate(word):
        p = players[i % 2]
        p.wait(GHOST_TURN)
        p.type(letter)
        if i + 1 < len(word):
            for q in players:
                fragment_shown(q, word[:i + 1])


def whose_turn(a, b):
    """Waits until one of the two has the turn on a new round (no letters yet); returns (mover, other)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        for p, q in ((a, b), (b, a)):
            t = p.text()
            if any(x in t for x in GHOST_TURN) and ("no letters yet" in t or "nog geen letters" in t):
                return p, q
        time.sleep(0.05)
    raise Failure("nobody's turn on a new round:\n%s\n%s" % (a.text(), b.text()))


def session_match(tmux, bins, port):
    """(a) Two people, English and Dutch, a bluff-and-challenge match to
    G-H-O-S-T with 16-character names: a word completed, a bluff challenged,
    a challenge answered with a word, the rules and the game menu opened."""
    eve = Client(tmux, bins, port, "match-en", config="rounds=ghost\nvariant=challenge\n")
    first_start(eve, "evesmith_longnam", pages=3)
    code = private_code(eve)
    jan = Client(tmux, bins, port, "match-nl")
    first_start(jan, "jan_de_vries_nl1", dutch=True, pages=2)
    join(jan, code)
    # Round 1: eve starts; jan completes PEAR.
    p, q = whose_turn(eve, jan)
    play_word(p, q, "pear")
    # Round 2: the loser starts; the other bluffs (QZ), is challenged and names no word.
    p, q = whose_turn(eve, jan)
    play_word(p, q, "qz")
    p.wait(("“QZ”",))
    p.type("!")
    q.wait(("Challenged: type a word", "Uitgedaagd: typ een woord"))
    q.type("a")
    q.wait(("QZA_",))
    q.keys("Enter")
    # Round 3, at 60×20: a challenge answered with a word (QU… QUEEN): the challenger loses.
    p, q = whose_turn(eve, jan)
    eve.resize(60, 20)
    jan.resize(60, 20)
    play_word(p, q, "qu")
    p.wait(("“QU”",))
    p.keys("?")
    p.wait(("How to play", "Zo speel je"))
    p.keys("Escape")
    p.wait(GHOST_TURN)
    p.type("!")
    q.wait(("Challenged: type a word", "Uitgedaagd: typ een woord"))
    q.type("een")
    q.wait(("QUEEN_",))
    q.keys("Enter")
    # Then jan loses every round to the end of the match: PEAR when eve
    # starts, ZEBRA, JUMBO, KNELT when he does. Eve opens the game menu once.
    words = ["zebra", "jumbo", "knelt", "zebra", "jumbo"]
    menu_opened = False
    for round_ in range(6):
        if any(x in eve.text() for x in OVER_MENU):
            break
        try:
            p, q = whose_turn(eve, jan)
        except Failure:
            if any(x in eve.text() for x in OVER_MENU):
                break
            raise
        if round_ == 2:
            eve.resize(80, 24)
            jan.resize(80, 24)
        if not menu_opened and p is eve:
            eve.keys("Escape")
            eve.wait(("Leave",))
            eve.type("b")
            eve.wait(GHOST_TURN)
            menu_opened = True
        play_word(p, q, "pear" if p is eve else words.pop(0))
    eve.wait(OVER_MENU)
    jan.wait(OVER_MENU)
    jan.resize(60, 20)
    jan.wait(OVER_MENU)
    for c in (eve, jan):
        c.quit()
    eve.save("ghost-match-en")
    jan.save("ghost-match-nl")


def play_until_over(c, letters, over):
    """Types the next of `letters` on each of `c`'s turns until `over` is on its screen."""
    turn = GHOST_TURN + HANGMAN_TURN
    for letter in letters:
        t = c.wait(lambda t: any(x in t for x in turn + over))
        if any(x in t for x in over):
            return t
        before = t
        c.type(letter)
        c.wait(lambda t: t != before)
    return c.wait(over)


WORDS = None


def ghost_letter(screen):
    """A letter that keeps a word going after the fragment on `screen`
    without finishing one: the next letter of the longest English word
    that starts with it (as a person who knows a long word would play)."""
    global WORDS
    if WORDS is None:
        with open(os.path.join(ROOT, "Dictionaries", "en.txt")) as f:
            WORDS = [w.strip() for w in f if w.strip().isalpha() and w.strip().islower()]
    m = re.search(r"“([A-Z]+)”", screen)
    fragment = m.group(1).lower() if m else ""
    words = [w for w in WORDS if w.startswith(fragment) and len(w) > len(fragment) + 1]
    return max(words, key=len)[len(fragment)] if words else "x"


def step(c, keys):
    """Presses each key, waiting after each for the screen to change."""
    for k in keys:
        before = c.text()
        c.keys(k)
        c.wait(lambda t: t != before)


def session_computer(tmux, bins, port):
    """(b) Ghost against the hard computer, lost; the game-over screen; h
    opens the game's replay and review; back to the game over, the main
    screen and the list of one's games (h)."""
    bea = Client(tmux, bins, port, "computer")
    first_start(bea, "beatrix_van_oss", pages=1)
    bea.keys("2")
    bea.wait(("Play the computer",))
    bea.keys("Down", "Down", "Up", "Down")
    bea.keys("3")
    bea.wait(GHOST_TURN + ("is thinking",))
    while True:
        t = bea.wait(lambda t: any(x in t for x in GHOST_TURN + OVER_MENU))
        if any(x in t for x in OVER_MENU):
            break
        bea.type(ghost_letter(t))
        bea.wait(lambda t2: t2 != t)
    bea.resize(60, 20)
    bea.wait(OVER_MENU)
    bea.keys("h")
    bea.wait(("The start", "Replay", "review"))
    bea.wait(lambda t: "Computer (hard)" in t or "hard" in t)
    step(bea, ("Home", "Right", "Right", "End", "Left"))
    bea.keys("r")
    bea.wait(lambda t: "review" in t.lower() or "analys" in t.lower())
    bea.resize(80, 24)
    bea.keys("Escape")
    bea.wait(OVER_MENU)
    bea.keys("Escape")
    bea.wait("Playing as beatrix_van_oss")
    bea.keys("h")
    bea.wait("vs Computer (hard)")
    bea.keys("Escape")
    bea.wait("Playing as beatrix_van_oss")
    # Registers the name (menu entry 0): the password typed key by key,
    # then pasted; the recording must hold neither.
    password = "correct horse 42"
    bea.keys("0")
    bea.wait("New password: _")
    for i, ch in enumerate(password):
        bea.type(ch)
        bea.wait("New password: " + "•" * (i + 1) + "_")
    bea.keys("Enter")
    bea.wait("Once more:")
    bea.type(password)
    bea.wait("•" * len(password) + "_")
    bea.keys("Enter")
    bea.wait("is registered")
    bea.quit()
    with open(bea.record) as f:
        if "horse" in f.read():
            raise Failure("the password is in the recording")
    bea.save("ghost-computer-en")


HANGMAN_OVER = ("r/Enter new game", "r/Enter rematch", "r/Enter nieuw spel", "r/Enter revanche")
FREQUENT = "etaoinsrhldcumfpgwybvkxjqz"


def session_hangman(tmux, bins, port):
    """(c) Hangman: evil against the computer (? rules, Tab settings), then a
    phrases game, then a duel between two clients, one setting the word."""
    hugo = Client(tmux, bins, port, "hangman-en")
    first_start(hugo, "hugo_hangs_words", pages=2)
    hugo.keys("Right")
    hugo.wait("● Hangman")
    hugo.keys("Down", "Down", "Down", "Down", "Down", "Down")
    hugo.wait(lambda t: re.search(r"▶ \S+\s+Rules", t))
    hugo.keys("Enter")
    hugo.wait(lambda t: "Playing as" not in t)
    hugo.keys("Escape")
    hugo.wait("● Hangman")
    hugo.keys("2")
    hugo.wait("You guess the computer's word")
    hugo.keys("1")
    hugo.wait(HANGMAN_TURN)
    hugo.keys("?")
    hugo.wait(lambda t: not any(x in t for x in HANGMAN_TURN))
    hugo.keys("Escape")
    hugo.wait(HANGMAN_TURN)
    play_until_over(hugo, FREQUENT, HANGMAN_OVER)
    step(hugo, ["h"])
    hugo.keys("Escape")
    hugo.wait(HANGMAN_OVER)
    hugo.resize(60, 20)
    hugo.keys("Tab")
    hugo.wait("Settings for your next game")
    hugo.keys("Down", "Down", "Right")
    hugo.wait("◀ fair")
    hugo.keys("Right")
    hugo.wait("phrase")
    hugo.keys("Tab")
    hugo.wait(HANGMAN_OVER)
    hugo.keys("Enter")
    hugo.wait(HANGMAN_TURN)
    hugo.resize(80, 24)
    play_until_over(hugo, FREQUENT, HANGMAN_OVER)
    hugo.keys("Escape")
    hugo.wait("● Hangman")

    nora = Client(tmux, bins, port, "hangman-nl")
    first_start(nora, "nora_raadt_woord", dutch=True, pages=1)
    nora.keys("Right")
    nora.wait("● Galgje")
    code = private_code(hugo)
    join(nora, code)
    hugo.wait("Choose a word for nora_raadt_woord to guess:")
    for ch in "zephyr":
        hugo.type(ch)
    hugo.wait("******_")
    hugo.keys("Enter")
    hugo.wait("Your word: ZEPHYR")
    nora.resize(60, 20)
    for ch in "eqa":
        nora.wait(HANGMAN_TURN)
        before = nora.text()
        nora.type(ch)
        nora.wait(lambda t: t != before)
    nora.wait(HANGMAN_TURN)
    nora.type("=")
    for ch in "zephyr":
        nora.type(ch)
    nora.wait("ZEPHYR_")
    nora.keys("Enter")
    nora.wait(HANGMAN_OVER)
    hugo.wait(HANGMAN_OVER)
    for c in (hugo, nora):
        c.quit()
    hugo.save("hangman-en")
    nora.save("hangman-nl")


def session_watch(tmux, bins, port):
    """(d) Two people play Ghost; a third client watches (w) from the list
    of games in progress to the end, at 80×24 and 60×20."""
    dave = Client(tmux, bins, port, "watch-player-1")
    first_start(dave, "dave_plays_first")
    code = private_code(dave)
    erin = Client(tmux, bins, port, "watch-player-2")
    first_start(erin, "erin_plays_twice", dutch=True)
    join(erin, code)
    dave.wait(GHOST_TURN)
    carla = Client(tmux, bins, port, "watch-watcher")
    first_start(carla, "carla_watcher_01")
    carla.keys("w")
    carla.wait("▶ dave_plays_first vs erin_plays_twice — Ghost")
    carla.keys("Enter")
    carla.wait("Watching")
    dave.wait("1 watching")
    dave.type("p")
    carla.wait("“P”")
    erin.wait(GHOST_TURN)
    erin.type("e")
    carla.wait("“PE”")
    carla.resize(60, 20)
    carla.type("x")
    carla.keys("Escape")
    carla.wait("▶ dave_plays_first vs erin_plays_twice — Ghost")
    carla.keys("Enter")
    carla.wait("“PE”")
    dave.wait(GHOST_TURN)
    dave.type("a")
    carla.wait("“PEA”")
    erin.wait(GHOST_TURN)
    erin.type("r")
    carla.wait("wins")
    carla.resize(80, 24)
    carla.keys("Enter")
    carla.wait(("Games in progress", "No games in progress"))
    carla.keys("Escape")
    carla.wait("Playing as carla_watcher_01")
    for c in (dave, erin, carla):
        c.quit()
    dave.save("watch-player-1-en")
    erin.save("watch-player-2-nl")
    carla.save("watch-watcher-en")


def session_clock(tmux, bins, port):
    """(e) A private game on a 15 s clock (--clock 15; a quick match pairs
    only players of one language): one player lets their
    time run low before each letter, the other runs out of time."""
    fay = Client(tmux, bins, port, "clock-en", extra=["--clock", "15"])
    first_start(fay, "fay_on_the_clock")
    gus = Client(tmux, bins, port, "clock-nl", extra=["--clock", "15"])
    first_start(gus, "gus_klok_is_laag", dutch=True)
    join(gus, private_code(fay))
    p, q = whose_turn(fay, gus)
    p.type("p")
    q.wait(GHOST_TURN)
    q.resize(60, 20)
    # Waits for the clock to show 5 s or less.
    q.wait(lambda t: re.search(r"0:0[0-5]", t))
    q.type("e")
    p.wait(GHOST_TURN)
    p.wait(lambda t: re.search(r"0:0[0-3]", t))
    # p lets the time run out.
    p.wait(("ran out of time", "had geen tijd meer"), timeout=40)
    q.wait(("ran out of time", "had geen tijd meer"))
    for c in (fay, gus):
        c.wait(OVER_MENU)
        c.quit()
    fay.save("clock-en")
    gus.save("clock-nl")


SESSIONS = {"match": session_match, "computer": session_computer, "hangman": session_hangman,
            "watch": session_watch, "clock": session_clock}


def main():
    names = sys.argv[1:] or list(SESSIONS)
    for n in names:
        if n not in SESSIONS:
            sys.exit("unknown session %s; sessions: %s" % (n, " ".join(SESSIONS)))
    bins = bin_dir()
    for n in names:
        daemon, tmux = Daemon(bins), Tmux()
        try:
            print("recording", n, "…", flush=True)
            SESSIONS[n](tmux, bins, daemon.port)
        finally:
            tmux.kill()
            daemon.stop()
    for f in sorted(os.listdir(OUT)):
        print("%8d  %s" % (os.path.getsize(os.path.join(OUT, f)), f))


if __name__ == "__main__":
    try:
        main()
    except Failure as e:
        sys.exit(str(e))
