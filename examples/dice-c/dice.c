/*
 * Dice in C: the same app as examples/dice/dice.py, shipped as one WebAssembly file that Parlor
 * runs itself (docs/APPS-WASM.md). Everyone in a conversation rolls one die at a time; the bubble
 * keeps the score, in the message URL, so nothing is kept between calls.
 *
 *     ./build            # dice.wasm, with examples/dice/manifest.json embedded
 */
#include "parlor.h"

#define BASE_URL "https://parlor.example/dice"
/* The view's title (a build may say which version it is: DICE_TITLE="Dice 2" ./build). */
#ifndef DICE_TITLE
#define DICE_TITLE "Dice"
#endif
#define ROLL_ACTION "{\"roll\":{}}"
#define FACES 6
/* Messages' limit for each caption text (docs/PROTOCOL.md §5). */
#define MAX_CAPTION 500
#define MAX_PLAYERS 100
#define ID_LENGTH 36
#define URL_BYTES 8192
#define TEXT_BYTES 8192

static const char *const number_words[] = {"zero", "one", "two", "three", "four", "five", "six"};

/* MARK: The scoreboard in a message URL */

typedef struct {
    char id[ID_LENGTH + 1];
    i64 total;
} Player;

/* One message's state: each player's total (in the order they first rolled), who rolled last and what. */
typedef struct {
    Player players[MAX_PLAYERS];
    int count;
    char last[ID_LENGTH + 1];
    i64 roll;
} Board;

/* A participant id as Parlor writes it (an upper-case UUID). */
static int is_participant(const char *text, int length) {
    if (length != ID_LENGTH) return 0;
    for (int i = 0; i < ID_LENGTH; i++) {
        char c = text[i];
        if (i == 8 || i == 13 || i == 18 || i == 23) {
            if (c != '-') return 0;
        } else if (!((c >= '0' && c <= '9') || (c >= 'A' && c <= 'F'))) {
            return 0;
        }
    }
    return 1;
}

/* A count: 1 to 9 digits; -1 otherwise. */
static i64 count_of(const char *text, int length) {
    if (length < 1 || length > 9) return -1;
    i64 n = 0;
    for (int i = 0; i < length; i++) {
        if (text[i] < '0' || text[i] > '9') return -1;
        n = n * 10 + (text[i] - '0');
    }
    return n;
}

static int find_player(const Board *board, const char *id) {
    for (int i = 0; i < board->count; i++) {
        if (memcmp(board->players[i].id, id, ID_LENGTH) == 0) return i;
    }
    return -1;
}

static void copy_id(char *to, const char *from) {
    memcpy(to, from, ID_LENGTH);
    to[ID_LENGTH] = 0;
}

/* Reads a scoreboard URL; 0 when it is not one this app writes. */
static int parse_board(const char *url, int length, Board *board) {
    int base = parlor_strlen(BASE_URL);
    if (length <= base || memcmp(url, BASE_URL, base) != 0 || url[base] != '?') return 0;
    board->count = 0;
    int has_last = 0, has_roll = 0;
    const char *p = url + base + 1, *end = url + length;
    while (p <= end) {
        const char *item_end = p;
        while (item_end < end && *item_end != '&') item_end++;
        const char *equals = p;
        while (equals < item_end && *equals != '=') equals++;
        if (equals == item_end) return 0; /* no '=' (an empty field included) */
        const char *key = p, *value = equals + 1;
        int key_length = (int)(equals - p), value_length = (int)(item_end - value);
        for (const char *c = p; c < item_end; c++) {
            if (*c == '%' || *c == '+' || *c == '#') return 0;
        }
        if (key_length == 4 && memcmp(key, "last", 4) == 0 && !has_last) {
            if (!is_participant(value, value_length)) return 0;
            copy_id(board->last, value);
            has_last = 1;
        } else if (key_length == 4 && memcmp(key, "roll", 4) == 0 && !has_roll) {
            if ((board->roll = count_of(value, value_length)) < 0) return 0;
            has_roll = 1;
        } else if (is_participant(key, key_length) && board->count < MAX_PLAYERS) {
            Player player;
            copy_id(player.id, key);
            if (find_player(board, player.id) >= 0) return 0; /* twice */
            if ((player.total = count_of(value, value_length)) < 0) return 0;
            board->players[board->count++] = player;
        } else {
            return 0;
        }
        p = item_end + 1;
    }
    return has_last && has_roll && find_player(board, board->last) >= 0;
}

/* The board of a message (its "url"), or 0 when it is not a Dice message. */
static int board_of(pj message, Board *board) {
    static char url[URL_BYTES];
    int length = pj_string(pj_get(message, "url"), url, sizeof url);
    return length > 0 && parse_board(url, length, board);
}

static void write_url(pw *w, const Board *board) {
    pw_raw(w, "\"" BASE_URL "?");
    for (int i = 0; i < board->count; i++) {
        pw_raw(w, board->players[i].id);
        pw_raw(w, "=");
        pw_int(w, board->players[i].total);
        pw_raw(w, "&");
    }
    pw_raw(w, "last=");
    pw_raw(w, board->last);
    pw_raw(w, "&roll=");
    pw_int(w, board->roll);
    pw_raw(w, "\"");
}

/* MARK: Text */

typedef struct {
    char bytes[TEXT_BYTES];
    int length;     /* in bytes */
    int characters; /* as people count them: the bytes that start a character */
} Text;

static void text_add(Text *text, const char *bytes) {
    for (; *bytes && text->length < TEXT_BYTES - 1; bytes++) {
        text->bytes[text->length++] = *bytes;
        if (((u8)*bytes & 0xC0) != 0x80) text->characters++;
    }
    text->bytes[text->length] = 0;
}

static void text_add_int(Text *text, i64 value) {
    char digits[24];
    int n = 0;
    do { digits[n++] = (char)('0' + value % 10); value /= 10; } while (value);
    char out[24];
    for (int i = 0; i < n; i++) out[i] = digits[n - 1 - i];
    out[n] = 0;
    text_add(text, out);
}

/* Cut to `limit` characters. */
static void text_cut(Text *text, int limit) {
    int characters = 0;
    for (int i = 0; i < text->length; i++) {
        if (((u8)text->bytes[i] & 0xC0) != 0x80 && ++characters > limit) {
            text->length = i;
            text->bytes[i] = 0;
            text->characters = limit;
            return;
        }
    }
}

/* `$<id>: total` for each player, joined by " · " (Parlor shows each `$<id>` as a name), cut to
 * fit `limit` characters. */
static void scores_text(const Board *board, Text *text) {
    for (int shown = board->count; shown >= 1; shown--) {
        text->length = text->characters = 0;
        for (int i = 0; i < shown; i++) {
            if (i) text_add(text, " \xC2\xB7 ");
            text_add(text, "$");
            text_add(text, board->players[i].id);
            text_add(text, ": ");
            text_add_int(text, board->players[i].total);
        }
        if (shown < board->count) {
            text_add(text, " \xC2\xB7 and ");
            text_add_int(text, board->count - shown);
            text_add(text, " more");
        }
        if (text->characters <= MAX_CAPTION || shown == 1) break;
    }
    text_cut(text, MAX_CAPTION);
}

/* MARK: What Parlor shows */

/* The state the app keeps per person: how many times they rolled and the scoreboard they see. */
typedef struct {
    i64 rolls;
    char seen[URL_BYTES];
    int seen_length; /* 0: none */
} State;

static void read_state(pj value, State *state) {
    i64 rolls = pj_count(pj_get(value, "rolls"));
    state->rolls = rolls > 0 ? rolls : 0;
    state->seen_length = pj_string(pj_get(value, "seen"), state->seen, sizeof state->seen);
    if (state->seen_length < 0) state->seen_length = 0;
}

static void write_state(pw *w, const State *state) {
    pw_raw(w, "{\"rolls\":");
    pw_int(w, state->rolls);
    if (state->seen_length) {
        pw_raw(w, ",\"seen\":");
        pw_string_bytes(w, state->seen, state->seen_length);
    }
    pw_raw(w, "}");
}

/* The app's screen: the newest scores this person has seen (their own roll included), else those
 * of the message they opened, and the Roll button. */
static void write_view(pw *w, const State *state, pj context) {
    static Board board;
    static Text scores;
    int has_board = state->seen_length ? parse_board(state->seen, state->seen_length, &board)
                                       : board_of(pj_get(context, "selectedMessage"), &board);
    scores.length = scores.characters = 0;
    if (has_board) scores_text(&board, &scores);
    pw_raw(w, "{\"type\":\"stack\",\"axis\":\"vertical\",\"alignment\":\"center\",\"spacing\":8,\"children\":["
              "{\"type\":\"text\",\"text\":\"" DICE_TITLE "\",\"style\":\"title\"},{\"type\":\"text\",\"text\":");
    pw_string(w, has_board ? scores.bytes : "No rolls yet");
    pw_raw(w, ",\"style\":\"body\",\"id\":\"score\"},{\"type\":\"button\",\"title\":\"Roll\",\"action\":");
    pw_string(w, ROLL_ACTION);
    pw_raw(w, ",\"role\":\"primary\",\"label\":\"Roll a die\",\"disabled\":false}]}");
}

/* MARK: Randomness */

/* A die's face, 1 to FACES, without bias. */
static int roll_die(void) {
    for (;;) {
        u8 byte;
        parlor_random_bytes(&byte, 1);
        if (byte < 252) return 1 + byte % FACES;
    }
}

/* A new upper-case UUID (version 4). */
static void new_uuid(char out[ID_LENGTH + 1]) {
    static const char hex[] = "0123456789ABCDEF";
    u8 bytes[16];
    parlor_random_bytes(bytes, 16);
    bytes[6] = (bytes[6] & 0x0F) | 0x40;
    bytes[8] = (bytes[8] & 0x3F) | 0x80;
    int n = 0;
    for (int i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10) out[n++] = '-';
        out[n++] = hex[bytes[i] >> 4];
        out[n++] = hex[bytes[i] & 15];
    }
    out[n] = 0;
}

/* MARK: Answering calls */

/* A participant id from JSON, upper-cased; 0 when it is not one. */
static int participant_of(pj value, char out[ID_LENGTH + 1]) {
    char text[64];
    int length = pj_string(value, text, sizeof text);
    if (length != ID_LENGTH) return 0;
    for (int i = 0; i < length; i++) {
        if (text[i] >= 'a' && text[i] <= 'z') text[i] = (char)(text[i] - 'a' + 'A');
    }
    if (!is_participant(text, length)) return 0;
    copy_id(out, text);
    return 1;
}

/* A roll: adds a die to the person's total in the opened scoreboard (or starts one) and sends the
 * new scoreboard, replacing the old one in its session. */
static void handle(pj call, pw *w, State *state, pj context) {
    static Board board;
    static char session[128];
    char me[ID_LENGTH + 1];
    pj action = pj_get(call, "action");
    if (pj_kind(action) != '{' || !pj_get(action, "roll").length) {
        parlor_refuse(w, call, "actionRefused", "Dice does not know that control.");
        return;
    }
    if (!participant_of(pj_get(context, "localParticipant"), me)) {
        parlor_refuse(w, call, "invalidValue", "Dice could not tell who is rolling.");
        return;
    }
    pj selected = pj_get(context, "selectedMessage");
    int has_board = board_of(selected, &board);
    int session_length = has_board ? pj_string(pj_get(pj_get(selected, "session"), "id"), session, sizeof session - 1) : -1;
    /* A scoreboard continues in its session; anything else starts a new one. */
    if (session_length <= 0) {
        board.count = 0;
        new_uuid(session);
        session_length = ID_LENGTH;
    }
    session[session_length] = 0;
    int rolled = roll_die();
    int index = find_player(&board, me);
    if (index < 0) {
        if (board.count >= MAX_PLAYERS) {
            parlor_refuse(w, call, "actionRefused", "This game has as many players as it can hold; start a new one.");
            return;
        }
        index = board.count++;
        copy_id(board.players[index].id, me);
        board.players[index].total = 0;
    }
    board.players[index].total += rolled;
    copy_id(board.last, me);
    board.roll = rolled;

    state->rolls += 1;

    static Text scores, said, label;
    scores_text(&board, &scores);
    said.length = said.characters = 0;
    text_add(&said, "$");
    text_add(&said, me);
    text_add(&said, " rolled ");
    text_add_int(&said, rolled);
    label.length = label.characters = 0;
    text_add(&label, "$");
    text_add(&label, me);
    text_add(&label, " rolled a ");
    text_add(&label, number_words[rolled]);
    text_add(&label, ". ");
    text_add(&label, scores.bytes);
    text_cut(&label, MAX_CAPTION);
    char message_id[ID_LENGTH + 1];
    new_uuid(message_id);

    parlor_begin_result(w, call);
    pw_raw(w, ",\"effects\":[{\"effect\":\"send\",\"message\":{\"id\":");
    pw_string(w, message_id);
    pw_raw(w, ",\"session\":{\"id\":");
    pw_string(w, session);
    pw_raw(w, "},\"url\":");
    int url_start = w->length;
    write_url(w, &board);
    /* The URL as written (without its quotes) is what this person now sees: the sender sees
     * their own roll at once (the opened message is still the one before it). */
    int url_length = w->length - url_start - 2;
    if (!w->overflowed && url_length > 0 && url_length < URL_BYTES) {
        memcpy(state->seen, parlor_answer + url_start + 1, url_length);
        state->seen_length = url_length;
    }
    pw_raw(w, ",\"layout\":{\"template\":{\"caption\":");
    pw_string(w, said.bytes);
    pw_raw(w, ",\"subcaption\":");
    pw_string(w, scores.bytes);
    pw_raw(w, "}},\"summaryText\":");
    pw_string(w, said.bytes);
    pw_raw(w, ",\"accessibilityLabel\":");
    pw_string(w, label.bytes);
    pw_raw(w, "}}],\"state\":");
    write_state(w, state);
    pw_raw(w, ",\"view\":");
    write_view(w, state, context);
    parlor_end(w);
}

/* Accepts a scoreboard only when it is the one before it plus one honest roll by its sender. */
static void validate(pj call, pw *w) {
    static Board new_board, old_board;
    char sender[ID_LENGTH + 1];
    pj message = pj_get(call, "message"), head = pj_get(call, "head");
    int has_old = pj_kind(head) == '{';
    if (!board_of(message, &new_board) || (has_old && !board_of(head, &old_board))) {
        parlor_refuse(w, call, "malformedURLState", "That is not a Dice scoreboard.");
        return;
    }
    if (!has_old) old_board.count = 0;
    int honest = participant_of(pj_get(message, "senderParticipantIdentifier"), sender)
        && memcmp(new_board.last, sender, ID_LENGTH) == 0 && new_board.roll >= 1 && new_board.roll <= FACES;
    /* Every player's total is as before, but the sender's, which grew by the roll. */
    for (int i = 0; honest && i < new_board.count; i++) {
        int before = find_player(&old_board, new_board.players[i].id);
        i64 was = before >= 0 ? old_board.players[before].total : 0;
        int is_sender = memcmp(new_board.players[i].id, sender, ID_LENGTH) == 0;
        honest = is_sender ? new_board.players[i].total - was == new_board.roll : new_board.players[i].total == was;
    }
    /* ...and no one's total went missing (a player left out counts as 0). */
    for (int i = 0; honest && i < old_board.count; i++) {
        if (find_player(&new_board, old_board.players[i].id) < 0 && old_board.players[i].total != 0) honest = 0;
    }
    if (!honest) {
        parlor_refuse(w, call, "actionRefused", "That roll does not add up.");
        return;
    }
    parlor_begin_result(w, call);
    parlor_end(w);
}

/* The hooks that change what the person sees; the others are answered "unimplemented", and
 * Parlor stops calling them (docs/APPS-PROTOCOL.md §3.2). */
static const char *const showing_hooks[] = {"willBecomeActive", "willSelect", "didSelect", "didReceive"};

static void parlor_app(pj call, pw *w) {
    static State state;
    pj hook = pj_get(call, "hook");
    pj context = pj_get(call, "context");
    read_state(pj_get(call, "state"), &state);
    if (pj_equals(hook, "validate")) {
        validate(call, w);
        return;
    }
    if (pj_equals(hook, "render")) {
        parlor_begin_result(w, call);
        pw_raw(w, ",\"view\":");
        write_view(w, &state, context);
        parlor_end(w);
        return;
    }
    if (pj_equals(hook, "handle")) {
        handle(call, w, &state, context);
        return;
    }
    for (unsigned i = 0; i < sizeof showing_hooks / sizeof *showing_hooks; i++) {
        if (!pj_equals(hook, showing_hooks[i])) continue;
        /* Opening a message or receiving one shows it; opening from the drawer shows none. */
        static Board board;
        pj message = pj_equals(hook, "willBecomeActive") ? pj_get(context, "selectedMessage") : pj_get(call, "message");
        if (board_of(message, &board)) {
            state.seen_length = pj_string(pj_get(message, "url"), state.seen, sizeof state.seen);
        } else if (pj_equals(hook, "willBecomeActive")) {
            state.seen_length = 0;
        }
        parlor_begin_result(w, call);
        pw_raw(w, ",\"state\":");
        write_state(w, &state);
        pw_raw(w, ",\"view\":");
        write_view(w, &state, context);
        parlor_end(w);
        return;
    }
    parlor_begin_result(w, call);
    pw_raw(w, ",\"unimplemented\":true");
    parlor_end(w);
}
