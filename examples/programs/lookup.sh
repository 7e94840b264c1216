#!/bin/sh
# A cube solver as a shell script that speaks the cubebench solver protocol, version 1
# (docs/protocol.md). For each request it runs awk, which searches every canonical
# sequence of up to three face turns (no face twice in a row, opposite faces in one order)
# on the 54 facelets; a cube farther than that gets "moves": null and a reason.
#
#   bench run -s ./lookup.toml --suite depth-03-v1:20
#
# POSIX sh and awk only. The requests are the harness's compact JSON Lines; the script
# reads only "id" and "facelets" from them and is no general JSON reader.

search='
BEGIN {
    # after a clockwise quarter turn of U R F D L B, sticker i holds what sticker Q[i] held
    q[0] = "6,3,0,7,4,1,8,5,2,45,46,47,12,13,14,15,16,17,9,10,11,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,18,19,20,39,40,41,42,43,44,36,37,38,48,49,50,51,52,53"
    q[1] = "0,1,20,3,4,23,6,7,26,15,12,9,16,13,10,17,14,11,18,19,29,21,22,32,24,25,35,27,28,51,30,31,48,33,34,45,36,37,38,39,40,41,42,43,44,8,46,47,5,49,50,2,52,53"
    q[2] = "0,1,2,3,4,5,44,41,38,6,10,11,7,13,14,8,16,17,24,21,18,25,22,19,26,23,20,15,12,9,30,31,32,33,34,35,36,37,27,39,40,28,42,43,29,45,46,47,48,49,50,51,52,53"
    q[3] = "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,24,25,26,18,19,20,21,22,23,42,43,44,33,30,27,34,31,28,35,32,29,36,37,38,39,40,41,51,52,53,45,46,47,48,49,50,15,16,17"
    q[4] = "53,1,2,50,4,5,47,7,8,9,10,11,12,13,14,15,16,17,0,19,20,3,22,23,6,25,26,18,28,29,21,31,32,24,34,35,42,39,36,43,40,37,44,41,38,45,46,33,48,49,30,51,52,27"
    q[5] = "11,14,17,3,4,5,6,7,8,9,10,35,12,13,34,15,16,33,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,36,39,42,2,37,38,1,40,41,0,43,44,51,48,45,52,49,46,53,50,47"
    split("U R F D L B", face, " ")
    split(" |2|'"'"'", turn, "|")
    for (f = 0; f < 6; f++) {
        split(q[f], t, ",")
        for (k = 0; k < 3; k++)
            for (i = 1; i <= 54; i++) {
                at = i - 1
                for (r = 0; r <= k; r++) at = t[at + 1]
                move[3 * f + k, i] = at + 1
            }
        for (k = 0; k < 3; k++) name[3 * f + k] = face[f + 1] (k ? turn[k + 1] : "")
    }
    nodes = 0
    for (depth = 0; depth <= 3; depth++)
        if (dfs(cube, depth, -1, "")) { print found; exit }
    print "-"
}
function solved(s,    i) {
    for (i = 0; i < 54; i++)
        if (substr(s, i + 1, 1) != substr(s, 9 * int(i / 9) + 5, 1)) return 0
    return 1
}
function turned(s, m,    i, out) {
    out = ""
    for (i = 1; i <= 54; i++) out = out substr(s, move[m, i], 1)
    return out
}
function dfs(s, left, last, path,    m, f) {
    nodes++
    if (left == 0) { if (solved(s)) { found = path; return 1 } return 0 }
    for (m = 0; m < 18; m++) {
        f = int(m / 3)
        if (last >= 0 && (f == last || f == last - 3)) continue
        if (dfs(turned(s, m), left - 1, f, path (path == "" ? "" : " ") name[m])) return 1
    }
    return 0
}'

printf '{"protocol":1,"name":"lookup-sh","version":"1.0","metric":"htm"}\n'
while IFS= read -r line; do
    id=$(printf '%s\n' "$line" | sed -n 's/.*"id":"\([^"]*\)".*/\1/p')
    cube=$(printf '%s\n' "$line" | sed -n 's/.*"facelets":"\([URFDLB]*\)".*/\1/p')
    if [ -z "$id" ] || [ ${#cube} -ne 54 ]; then
        echo "lookup.sh: not a request: $line" >&2
        exit 1
    fi
    moves=$(awk -v cube="$cube" "$search")
    if [ "$moves" = "-" ]; then
        printf '{"id":"%s","moves":null,"reason":"more than three face turns from solved"}\n' "$id"
    else
        printf '{"id":"%s","moves":"%s"}\n' "$id" "$moves"
    fi
done
