/*
 * null-ghostd: the ceiling for the letter benchmark on this machine.
 *
 * A single-threaded epoll server that speaks just enough of ghostd's protocol
 * for `ghost-bench play` (NAME, SEEK, LETTER, PING) and sends the same lines
 * in the same pattern as ghostd: per letter, OK LETTER + MOVE + TURN to the
 * mover and MOVE + TURN to the opponent, flushed once per loop turn, and a
 * game ends after GAME_LETTERS letters (about what random play lasts on the
 * English list) with OVER, INFO and two RANK lines. For `ghost-bench
 * play-hangman` (LANG, NEW game=hangman, LETTER) it sends Hangman's pattern:
 * per guess OK LETTER + MOVE + TURN, and after HANGMAN_GUESSES guesses
 * (about what ghost-bench's guesser takes against the evil computer with
 * length=any misses=8) OVER, INFO and RANK. It has no rules, no
 * dictionary, no storage and no limits: what it reaches is what the sockets
 * alone allow, so ghostd's letter rate can be read against it.
 *
 *   cc -O2 -o null-ghostd scripts/null-ghostd.c && ./null-ghostd PORT
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAX_CONNS 65536
#define GAME_LETTERS 6
#define HANGMAN_GUESSES 15

typedef struct {
    char in[1024];
    int inlen;
    char out[16384];
    int outlen;
    char name[32];
    int game;        /* game id, 0: none */
    int partner;     /* fd of the opponent */
    int dirty;
    int hangman;     /* guesses so far in a Hangman game, +1; 0: none */
    char last;       /* the last guess (ghost-bench repeats it as a bad line) */
} conn_t;

static conn_t *conns[MAX_CONNS];
static int dirty[MAX_CONNS], ndirty;
static int waiting = -1;
static int next_game = 1;
/* per game: fragment and who is to move */
typedef struct { char frag[64]; int len; int to_move; int players[2]; } game_t;
static game_t *games;
static int games_cap;

__attribute__((format(printf, 2, 3)))
static void emit(int fd, const char *fmt, ...) {
    conn_t *c = conns[fd];
    if (!c) return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(c->out + c->outlen, sizeof c->out - c->outlen, fmt, ap);
    va_end(ap);
    if (n > 0 && c->outlen + n < (int)sizeof c->out) c->outlen += n;
    if (!c->dirty) { c->dirty = 1; dirty[ndirty++] = fd; }
}

static game_t *game_of(int id) {
    if (id >= games_cap) {
        int cap = games_cap ? games_cap * 2 : 1024;
        while (cap <= id) cap *= 2;
        games = realloc(games, sizeof(game_t) * cap);
        games_cap = cap;
    }
    return &games[id];
}

static void line(int fd, char *s) {
    conn_t *c = conns[fd];
    if (!strncmp(s, "PING", 4)) { emit(fd, "OK PING\r\n"); return; }
    if (!strncmp(s, "NAME ", 5)) {
        snprintf(c->name, sizeof c->name, "%s", s + 5);
        emit(fd, "OK NAME name=%s lang=en\r\n", c->name);
        return;
    }
    if (!strncmp(s, "LANG ", 5)) { emit(fd, "OK LANG lang=en\r\n"); return; }
    if (!strncmp(s, "NEW game=hangman", 16)) {
        int id = next_game++;
        c->hangman = 1;
        c->last = 0;
        c->game = id;
        emit(fd, "OK NEW game=hangman mode=evil lang=en length=11 misses=8\r\n"
             "GAME id=%d game=hangman lang=en players=bot-hangman,%s token=0123456789abcdef0123456789abcdef round=1 mode=evil length=11 misses=8\r\n"
             "TURN id=%d player=%s pattern=___________ missed=- left=8\r\n", id, c->name, id, c->name);
        return;
    }
    if (!strncmp(s, "LETTER ", 7) && strlen(s) == 8 && c->hangman) {
        char l = s[7];
        if (l == c->last) { emit(fd, "ERR already-guessed e was guessed already\r\n"); return; }
        c->last = l;
        int n = c->hangman++;
        emit(fd, "OK LETTER letter=%c hit=yes pattern=______a_i_n missed=ers left=5\r\n"
             "MOVE id=%d player=%s letter=%c hit=yes pattern=______a_i_n missed=ers left=5\r\n", l, c->game, c->name, l);
        if (n >= HANGMAN_GUESSES) {
            emit(fd, "OVER id=%d winner=%s loser=bot-hangman reason=solved word=commutation mistakes=6 pattern=commutation\r\n"
                 "INFO %s found \"commutation\" with 6 mistakes.\r\n"
                 "RANK board=hangman-evil rank=1 word=commutation mistakes=6 misses=8 mode=evil lang=en\r\n",
                 c->game, c->name, c->name);
            c->hangman = 0;
            c->game = 0;
        } else {
            emit(fd, "TURN id=%d player=%s pattern=______a_i_n missed=ers left=5\r\n", c->game, c->name);
        }
        return;
    }
    if (!strcmp(s, "SEEK")) {
        emit(fd, "OK SEEK lang=en\r\n");
        if (waiting < 0 || !conns[waiting]) {
            waiting = fd;
            emit(fd, "INFO Waiting for another player who seeks a game in en.\r\n");
            return;
        }
        int a = waiting, b = fd, id = next_game++;
        waiting = -1;
        game_t *g = game_of(id);
        g->len = 0; g->frag[0] = 0; g->to_move = 0; g->players[0] = a; g->players[1] = b;
        conns[a]->game = conns[b]->game = id;
        conns[a]->partner = b; conns[b]->partner = a;
        for (int i = 0; i < 2; i++) {
            emit(g->players[i], "GAME id=%d lang=en players=%s,%s token=0123456789abcdef0123456789abcdef round=1\r\n"
                 "TURN id=%d player=%s fragment=\r\n", id, conns[a]->name, conns[b]->name, id, conns[a]->name);
        }
        return;
    }
    if (!strncmp(s, "LETTER ", 7) && strlen(s) == 8 && c->game) {
        game_t *g = game_of(c->game);
        int seat = g->players[0] == fd ? 0 : 1;
        if (g->to_move != seat) { emit(fd, "ERR not-your-turn it is your opponent's turn\r\n"); return; }
        g->frag[g->len++] = s[7];
        g->frag[g->len] = 0;
        g->to_move = 1 - seat;
        int other = g->players[1 - seat];
        if (!conns[other]) { c->game = 0; emit(fd, "ERR not-in-game your opponent left\r\n"); return; }
        emit(fd, "OK LETTER letter=%c fragment=%s\r\n", s[7], g->frag);
        for (int i = 0; i < 2; i++)
            emit(g->players[i], "MOVE id=%d player=%s letter=%c fragment=%s\r\n", c->game, c->name, s[7], g->frag);
        if (g->len >= GAME_LETTERS) {
            for (int i = 0; i < 2; i++) {
                emit(g->players[i], "OVER id=%d winner=%s loser=%s reason=dead fragment=%s\r\n"
                     "INFO No word starts with %s: %s loses.\r\n"
                     "RANK name=%s rank=1 wins=1\r\nRANK name=%s rank=2 wins=0\r\n",
                     c->game, conns[other]->name, c->name, g->frag, g->frag, c->name, conns[other]->name, c->name);
            }
            c->game = conns[other]->game = 0;
        } else {
            for (int i = 0; i < 2; i++)
                emit(g->players[i], "TURN id=%d player=%s fragment=%s\r\n", c->game, conns[other]->name, g->frag);
        }
        return;
    }
    emit(fd, "ERR bad-command what?\r\n");
}

int main(int argc, char **argv) {
    int port = argc > 1 ? atoi(argv[1]) : 7799;
    int ls = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    int one = 1;
    setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    if (bind(ls, (struct sockaddr *)&a, sizeof a) || listen(ls, 1024)) { perror("listen"); return 1; }
    int ep = epoll_create1(0);
    struct epoll_event ev = { .events = EPOLLIN, .data.fd = ls };
    epoll_ctl(ep, EPOLL_CTL_ADD, ls, &ev);
    struct epoll_event evs[256];
    char buf[16384];
    for (;;) {
        int n = epoll_wait(ep, evs, 256, -1);
        for (int i = 0; i < n; i++) {
            int fd = evs[i].data.fd;
            if (fd == ls) {
                int c;
                while ((c = accept4(ls, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
                    if (c >= MAX_CONNS) { close(c); continue; }
                    setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                    conns[c] = calloc(1, sizeof(conn_t));
                    struct epoll_event e = { .events = EPOLLIN, .data.fd = c };
                    epoll_ctl(ep, EPOLL_CTL_ADD, c, &e);
                    emit(c, "HELLO null-ghostd protocol=1 languages=en\r\n");
                }
                continue;
            }
            conn_t *c = conns[fd];
            if (!c) continue;
            ssize_t got = read(fd, buf, sizeof buf);
            if (got <= 0) {
                if (got < 0 && errno == EAGAIN) continue;
                if (c->game && conns[c->partner]) conns[c->partner]->game = 0;
                if (waiting == fd) waiting = -1;
                if (c->dirty) c->outlen = 0;
                close(fd); free(c); conns[fd] = NULL;
                continue;
            }
            for (ssize_t k = 0; k < got; k++) {
                char ch = buf[k];
                if (ch == '\n') {
                    if (c->inlen && c->in[c->inlen - 1] == '\r') c->inlen--;
                    c->in[c->inlen] = 0;
                    line(fd, c->in);
                    c->inlen = 0;
                } else if (c->inlen < (int)sizeof c->in - 1) {
                    c->in[c->inlen++] = ch;
                }
            }
        }
        /* once per turn: one write per connection with replies */
        for (int k = 0; k < ndirty; k++) {
            conn_t *c = conns[dirty[k]];
            if (!c) continue;
            if (c->outlen) (void)!send(dirty[k], c->out, c->outlen, MSG_NOSIGNAL);
            c->outlen = 0;
            c->dirty = 0;
        }
        ndirty = 0;
    }
}
