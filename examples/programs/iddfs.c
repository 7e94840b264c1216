/*
 * A cube solver in C that speaks the cubebench solver protocol, version 1
 * (docs/protocol.md): iterative deepening over the 18 face turns, each sequence in
 * canonical order (no face twice in a row, opposite faces in one order), on the 54
 * facelets themselves. It proves nothing and knows no tables: it finds the shortest
 * answer of cubes up to about 6 face turns from solved within a second or so, and gives up
 * past its depth limit or its time limit, saying why.
 *
 *   cc -O2 -o iddfs iddfs.c && bench run -s ./iddfs.toml --suite depth-05-v1:20
 *
 * Requests come as JSON Lines from the harness, one object a line, compact and with the
 * keys it always writes; this program reads only what it needs ("id", "facelets",
 * "time_limit_s") and is no general JSON reader.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define STICKERS 54
#define MOVES 18
#define MAX_DEPTH 7

/* The six clockwise quarter turns U R F D L B on kociemba's facelet string (faces U R F D
 * L B, nine stickers each): after a turn, sticker i holds what sticker T[i] held. */
static const int QUARTER[6][STICKERS] = {
    {6,3,0,7,4,1,8,5,2,45,46,47,12,13,14,15,16,17,9,10,11,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,18,19,20,39,40,41,42,43,44,36,37,38,48,49,50,51,52,53},
    {0,1,20,3,4,23,6,7,26,15,12,9,16,13,10,17,14,11,18,19,29,21,22,32,24,25,35,27,28,51,30,31,48,33,34,45,36,37,38,39,40,41,42,43,44,8,46,47,5,49,50,2,52,53},
    {0,1,2,3,4,5,44,41,38,6,10,11,7,13,14,8,16,17,24,21,18,25,22,19,26,23,20,15,12,9,30,31,32,33,34,35,36,37,27,39,40,28,42,43,29,45,46,47,48,49,50,51,52,53},
    {0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,24,25,26,18,19,20,21,22,23,42,43,44,33,30,27,34,31,28,35,32,29,36,37,38,39,40,41,51,52,53,45,46,47,48,49,50,15,16,17},
    {53,1,2,50,4,5,47,7,8,9,10,11,12,13,14,15,16,17,0,19,20,3,22,23,6,25,26,18,28,29,21,31,32,24,34,35,42,39,36,43,40,37,44,41,38,45,46,33,48,49,30,51,52,27},
    {11,14,17,3,4,5,6,7,8,9,10,35,12,13,34,15,16,33,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,36,39,42,2,37,38,1,40,41,0,43,44,51,48,45,52,49,46,53,50,47},
};
static const char *NAMES[MOVES] = {"U","U2","U'","R","R2","R'","F","F2","F'",
                                   "D","D2","D'","L","L2","L'","B","B2","B'"};
static int table[MOVES][STICKERS];
static int path[MAX_DEPTH];
static long long nodes;
static double deadline;
static int out_of_time;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void build_tables(void) {
    for (int f = 0; f < 6; f++)
        for (int k = 0; k < 3; k++)       /* a turn k+1 quarter turns clockwise */
            for (int i = 0; i < STICKERS; i++) {
                int at = i;
                for (int q = 0; q <= k; q++) at = QUARTER[f][at];
                table[3 * f + k][i] = at;
            }
}

static int solved(const char *s) {
    for (int i = 0; i < STICKERS; i++)
        if (s[i] != s[9 * (i / 9) + 4]) return 0;
    return 1;
}

/* faces U R F D L B are 0..5; opposite pairs U-D, R-L, F-B (f and f+3) in that order only */
static int allowed(int last_face, int face) {
    if (last_face < 0) return 1;
    return face != last_face && face != last_face - 3;
}

static int search(const char *s, int depth, int left, int last_face) {
    if (left == 0) return solved(s);
    if ((++nodes & 4095) == 0 && now() > deadline) { out_of_time = 1; return 0; }
    char next[STICKERS];
    for (int m = 0; m < MOVES; m++) {
        int face = m / 3;
        if (!allowed(last_face, face)) continue;
        for (int i = 0; i < STICKERS; i++) next[i] = s[table[m][i]];
        path[depth] = m;
        if (search(next, depth + 1, left - 1, face)) return 1;
        if (out_of_time) return 0;
    }
    return 0;
}

/* the text after "key": in a compact JSON line, copied into out (at most size - 1 chars) */
static int field(const char *line, const char *key, char *out, size_t size) {
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\":", key);
    const char *at = strstr(line, pattern);
    if (!at) return 0;
    at += strlen(pattern);
    size_t n = 0;
    if (*at == '"') {
        at++;
        while (*at && *at != '"' && n + 1 < size) out[n++] = *at++;
    } else {
        while (*at && *at != ',' && *at != '}' && n + 1 < size) out[n++] = *at++;
    }
    out[n] = '\0';
    return 1;
}

int main(void) {
    static char line[1 << 16];
    char id[256], facelets[128], limit[64];
    build_tables();
    setvbuf(stdout, NULL, _IOLBF, 0);
    printf("{\"protocol\":1,\"name\":\"iddfs-c\",\"version\":\"1.0\",\"metric\":\"htm\"}\n");
    while (fgets(line, sizeof line, stdin)) {
        if (!field(line, "id", id, sizeof id) || !field(line, "facelets", facelets, sizeof facelets)
            || strlen(facelets) != STICKERS) {
            fprintf(stderr, "iddfs: not a request: %.80s\n", line);
            return 1;
        }
        double seconds = 60.0;
        if (field(line, "time_limit_s", limit, sizeof limit) && strcmp(limit, "null") != 0)
            seconds = atof(limit);
        deadline = now() + 0.9 * seconds;
        nodes = 0;
        out_of_time = 0;
        int found = -1;
        for (int depth = 0; depth <= MAX_DEPTH && found < 0 && !out_of_time; depth++)
            if (search(facelets, 0, depth, -1)) found = depth;
        if (found < 0) {
            printf("{\"id\":\"%s\",\"moves\":null,\"nodes\":%lld,\"reason\":\"%s\"}\n", id, nodes,
                   out_of_time ? "time: the search's own deadline" : "beyond its depth limit");
            continue;
        }
        printf("{\"id\":\"%s\",\"moves\":\"", id);
        for (int i = 0; i < found; i++) printf("%s%s", i ? " " : "", NAMES[path[i]]);
        printf("\",\"nodes\":%lld,\"depth\":%d}\n", nodes, found);
    }
    return 0;
}
