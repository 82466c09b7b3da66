/* SQLite's own cost of one durable letter, without ghostd: what a letter's
 * transaction costs at the least, for issue #29's instructions-per-letter
 * target. Built and counted by scripts/callgrind-sqlite-floor.sh.
 *
 *   sqlite-floor LETTERS SAVEPOINT DIR
 *
 * One game row per 5 letters; each letter its own transaction, as ghostd
 * commits a letter before it answers (lock step: nothing to group):
 * BEGIN (deferred, as ghostd's turn from schema 12 on), [SAVEPOINT command,]
 * the INSERT into moves ghostd makes (the same table as schema 13: WITHOUT
 * ROWID, its primary key, no foreign key), [RELEASE command,] COMMIT. The database as ghostd makes a new
 * one: 1 KiB pages, WAL, synchronous=NORMAL (--durability normal),
 * foreign_keys on, opened without SQLite's own mutexes, statements prepared
 * once. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static sqlite3 *db;

static void run(const char *sql) {
    char *err = 0;
    if (sqlite3_exec(db, sql, 0, 0, &err) != SQLITE_OK) { fprintf(stderr, "%s: %s\n", sql, err); exit(1); }
}

static sqlite3_stmt *prepare(const char *sql) {
    sqlite3_stmt *s = 0;
    if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &s, 0) != SQLITE_OK) {
        fprintf(stderr, "%s: %s\n", sql, sqlite3_errmsg(db)); exit(1);
    }
    return s;
}

static void step(sqlite3_stmt *s) {
    if (sqlite3_step(s) != SQLITE_DONE) { fprintf(stderr, "step: %s\n", sqlite3_errmsg(db)); exit(1); }
    sqlite3_reset(s);
}

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: sqlite-floor LETTERS SAVEPOINT(0|1) DIR\n"); return 2; }
    int letters = atoi(argv[1]), savepoint = atoi(argv[2]);
    char path[4096];
    snprintf(path, sizeof path, "%s/floor.db", argv[3]);
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, 0) != SQLITE_OK) return 1;
    run("PRAGMA page_size=1024");
    run("PRAGMA journal_mode=WAL");
    run("PRAGMA synchronous=NORMAL");
    run("PRAGMA foreign_keys=ON");
    run("CREATE TABLE games(id INTEGER PRIMARY KEY, kind TEXT NOT NULL)");
    run("CREATE TABLE moves(game_id INTEGER NOT NULL, round INTEGER NOT NULL,"
        " ply INTEGER NOT NULL, seat INTEGER NOT NULL, move TEXT NOT NULL, at INTEGER NOT NULL,"
        " PRIMARY KEY (game_id, round, ply)) WITHOUT ROWID");
    sqlite3_stmt *begin = prepare("BEGIN"), *sp = prepare("SAVEPOINT command"),
                 *release = prepare("RELEASE command"), *commit = prepare("COMMIT"),
                 *game = prepare("INSERT INTO games(kind) VALUES ('ghost')"),
                 *move = prepare("INSERT INTO moves(game_id, round, ply, seat, move, at) VALUES (?, ?, ?, ?, ?, ?)");
    sqlite3_int64 id = 0;
    for (int i = 0; i < letters; i++) {
        if (i % 5 == 0) { step(game); id = sqlite3_last_insert_rowid(db); }
        step(begin);
        if (savepoint) step(sp);
        sqlite3_bind_int64(move, 1, id);
        sqlite3_bind_int64(move, 2, 1);
        sqlite3_bind_int64(move, 3, i % 5 + 1);
        sqlite3_bind_int64(move, 4, i % 2);
        sqlite3_bind_text(move, 5, "peach" + i % 5, 1, SQLITE_STATIC);
        sqlite3_bind_int64(move, 6, 1764000000 + i);
        step(move);
        if (savepoint) step(release);
        step(commit);
    }
    sqlite3_close(db);
    return 0;
}
