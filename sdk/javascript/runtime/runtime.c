/* The JavaScript runtime (sdk/ABI.md, "Bots from source"): QuickJS and
 * pitboss.js in one WASI reactor that runs any JavaScript bot from its
 * source. scripts/build-js-runtime compiles it with QuickJS (the pinned
 * `quickjs` source distribution on PyPI) into
 * harness/host/javascript/runtime.wasm.
 *
 * pitboss_preinit starts QuickJS and pitboss.js; the host keeps that
 * state, then hands each bot's source to an instance started from it
 * (pitboss_source_reserve, then pitboss_source_load), which runs it as a
 * global script named bot.js; what that leaves is the bot's start-up
 * snapshot. Deterministic as any bot: no clock but the virtual one,
 * Math.random drawn from the seat's WASI random stream, reseeded at each
 * instance's first decision. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "quickjs.h"

/* pitboss.js as a C string, after a '\n' (see parse). */
#include "pitboss_js.h"

static uint8_t buffer[4096] __attribute__((aligned(16)));
static JSRuntime *rt;
static JSContext *ctx;
static JSValue decide = JS_UNDEFINED; /* pitboss._decide, once a bot played */
static JSValue bytes = JS_UNDEFINED;  /* a Uint8Array over `buffer` */
static char *source;                  /* '\n' and the reserved source */
static int32_t source_len;
static uint64_t random_state = 0x9E3779B97F4A7C15ull;
static int reseeded; /* 0 in the start-up snapshot */

/* The exception's stack to the bot's log. */
static void print_exception(JSValue e) {
    const char *text = JS_ToCString(ctx, e);
    fprintf(stderr, "%s\n", text ? text : "exception");
    JS_FreeCString(ctx, text);
    if (JS_IsError(ctx, e)) {
        JSValue stack = JS_GetPropertyStr(ctx, e, "stack");
        const char *s = JS_IsUndefined(stack) ? NULL : JS_ToCString(ctx, stack);
        if (s) fputs(s, stderr);
        JS_FreeCString(ctx, s);
        JS_FreeValue(ctx, stack);
    }
}

/* The pending exception, if any, and `why` to the bot's log, then a
 * trap: a `trap` fault, the decision's safe default, a fresh instance. */
static void fail(const char *why) {
    if (ctx) {
        JSValue e = JS_GetException(ctx);
        if (!JS_IsNull(e)) print_exception(e);
        JS_FreeValue(ctx, e);
    }
    fprintf(stderr, "pitboss: %s\n", why);
    fflush(stderr);
    __builtin_trap();
}

/* console.log and friends: their arguments, as strings, to the log. */
static JSValue js_log(JSContext *c, JSValueConst this_val, int argc, JSValueConst *argv) {
    for (int i = 0; i < argc; i++) {
        const char *s = JS_ToCString(c, argv[i]);
        if (!s) return JS_EXCEPTION;
        fprintf(stderr, i ? " %s" : "%s", s);
        JS_FreeCString(c, s);
    }
    fputc('\n', stderr);
    return JS_UNDEFINED;
}

/* Math.random: xorshift64* over the seat's stream (the state is drawn
 * from WASI random_get, itself keyed by the seat and the source). */
static JSValue js_random(JSContext *c, JSValueConst this_val, int argc, JSValueConst *argv) {
    uint64_t x = random_state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    random_state = x;
    return JS_NewFloat64(c, (double)((x * 0x2545F4914F6CDD1Dull) >> 11) / 9007199254740992.0);
}

/* Parses and runs `text` (after a '\n', which the column of a syntax
 * error counts back to) as a global script named `name`. */
static JSValue parse(const char *text, size_t len, const char *name) {
    return JS_Eval(ctx, text, len, name, JS_EVAL_TYPE_GLOBAL);
}

static void set_function(JSValue object, const char *name, JSCFunction *f, int length) {
    JS_SetPropertyStr(ctx, object, name, JS_NewCFunction(ctx, f, name, length));
}

/* QuickJS, console, Math.random and pitboss.js. */
static void start(void) {
    rt = JS_NewRuntime();
    if (!rt) fail("cannot start QuickJS");
    /* A deep recursion (about 250 calls) is an InternalError the bot
     * can catch, counted on the C stack in linear memory, so the same on
     * every machine: well before the host's 512 KiB of native stack runs
     * out (about 500 calls) and traps: its message is the same anywhere. */
    JS_SetMaxStackSize(rt, 96 * 1024);
    ctx = JS_NewContext(rt);
    if (!ctx) fail("cannot start QuickJS");
    JSValue global = JS_GetGlobalObject(ctx);
    JSValue console = JS_NewObject(ctx);
    set_function(console, "log", js_log, 1);
    set_function(console, "info", js_log, 1);
    set_function(console, "warn", js_log, 1);
    set_function(console, "error", js_log, 1);
    set_function(console, "debug", js_log, 1);
    JS_SetPropertyStr(ctx, global, "console", console);
    set_function(global, "print", js_log, 1);
    JSValue math = JS_GetPropertyStr(ctx, global, "Math");
    set_function(math, "random", js_random, 0);
    JS_FreeValue(ctx, math);
    JSValue done = parse(PITBOSS_JS + 1, sizeof PITBOSS_JS - 2, "pitboss.js");
    if (JS_IsException(done)) fail("pitboss.js failed to start");
    JS_FreeValue(ctx, done);
    /* The buffer as bytes the host's writes show through. */
    JSValue memory = JS_NewArrayBuffer(ctx, buffer, sizeof buffer, NULL, NULL, 0);
    JSValue view = JS_GetPropertyStr(ctx, global, "Uint8Array");
    bytes = JS_CallConstructor(ctx, view, 1, &memory);
    JS_FreeValue(ctx, view);
    JS_FreeValue(ctx, memory);
    JS_FreeValue(ctx, global);
    if (JS_IsException(bytes)) fail("cannot make the buffer's Uint8Array");
}

__attribute__((export_name("pitboss_preinit"))) void pitboss_preinit(void) {
    if (!ctx) start();
}

/* Room for `len` bytes of source: their address, or 0 (none, or twice). */
__attribute__((export_name("pitboss_source_reserve"))) int32_t pitboss_source_reserve(int32_t len) {
    if (len < 0 || source || !JS_IsUndefined(decide)) return 0;
    source = malloc((size_t)len + 2);
    if (!source) return 0;
    source[0] = '\n';
    source[len + 1] = '\0';
    source_len = len;
    return (int32_t)(uintptr_t)(source + 1);
}

/* The line of the innermost frame of bot.js in a stack ("at f (bot.js:7)"). */
static int stack_line(JSValue e) {
    JSValue stack = JS_GetPropertyStr(ctx, e, "stack");
    const char *s = JS_IsUndefined(stack) ? NULL : JS_ToCString(ctx, stack);
    const char *at = s ? strstr(s, "bot.js:") : NULL;
    int line = at ? atoi(at + 7) : 0;
    JS_FreeCString(ctx, s);
    JS_FreeValue(ctx, stack);
    return line;
}

/* Whether the property `name` of `e` is the string `want`. */
static int is_string(JSValue e, const char *name, const char *want) {
    JSValue v = JS_GetPropertyStr(ctx, e, name);
    const char *s = JS_IsString(v) ? JS_ToCString(ctx, v) : NULL;
    int same = s && strcmp(s, want) == 0;
    JS_FreeCString(ctx, s);
    JS_FreeValue(ctx, v);
    return same;
}

static int int_property(JSValue e, const char *name) {
    JSValue v = JS_GetPropertyStr(ctx, e, name);
    int32_t n = 0;
    if (!JS_IsNumber(v) || JS_ToInt32(ctx, &n, v) != 0) n = 0;
    JS_FreeValue(ctx, v);
    return n;
}

/* Why the source was refused, one line: `LINE:COL: what` for a syntax
 * error in it, `LINE: what` for an exception while it ran (its stack goes
 * to the log first; a SyntaxError of JSON.parse or eval is one). */
static void refuse(JSValue e) {
    const char *what = JS_ToCString(ctx, e);
    int syntax = JS_IsError(ctx, e) && is_string(e, "name", "SyntaxError") && is_string(e, "fileName", "bot.js");
    if (syntax) {
        fprintf(stderr, "%d:%d: %s\n", int_property(e, "lineNumber"), int_property(e, "columnNumber"),
                what ? what : "SyntaxError");
    } else {
        print_exception(e);
        int line = stack_line(e);
        if (line > 0) {
            fprintf(stderr, "%d: %s\n", line, what ? what : "exception");
        } else {
            fprintf(stderr, "%s\n", what ? what : "exception");
        }
    }
    fflush(stderr);
    JS_FreeCString(ctx, what);
}

/* Checks and runs the source: 0, or 1 with one line written last to
 * stderr saying why; 2 if nothing was reserved. */
__attribute__((export_name("pitboss_source_load"))) int32_t pitboss_source_load(void) {
    if (!ctx) start();
    if (!source || !JS_IsUndefined(decide)) return 2;
    JSValue done = parse(source + 1, (size_t)source_len, "bot.js");
    free(source);
    source = NULL;
    if (JS_IsException(done)) {
        JSValue e = JS_GetException(ctx);
        refuse(e);
        JS_FreeValue(ctx, e);
        return 1;
    }
    JS_FreeValue(ctx, done);
    JSValue global = JS_GetGlobalObject(ctx);
    JSValue sdk = JS_GetPropertyStr(ctx, global, "pitboss");
    JSValue state = JS_GetPropertyStr(ctx, sdk, "_state");
    JSValue bot = JS_GetPropertyStr(ctx, state, "bot");
    int played = JS_IsObject(bot);
    if (played) decide = JS_GetPropertyStr(ctx, sdk, "_decide");
    JS_FreeValue(ctx, bot);
    JS_FreeValue(ctx, state);
    JS_FreeValue(ctx, sdk);
    JS_FreeValue(ctx, global);
    if (!played) {
        fprintf(stderr, "the bot never calls pitboss.play(bot)\n");
        fflush(stderr);
        return 1;
    }
    return 0;
}

__attribute__((export_name("pitboss_abi_version"))) int32_t pitboss_abi_version(void) { return 1; }

__attribute__((export_name("pitboss_buffer"))) int32_t pitboss_buffer(void) { return (int32_t)(uintptr_t)buffer; }

__attribute__((export_name("pitboss_decide"))) int64_t pitboss_decide(int32_t kind) {
    if (JS_IsUndefined(decide)) fail("no bot source was loaded (pitboss_source_load)");
    if (!reseeded) {
        reseeded = 1;
        uint64_t seed = 0;
        if (getentropy(&seed, sizeof seed) != 0) fail("cannot seed Math.random");
        random_state = seed | 1;
    }
    JSValue args[2] = {JS_NewInt32(ctx, kind), JS_DupValue(ctx, bytes)};
    JSValue answer = JS_Call(ctx, decide, JS_UNDEFINED, 2, args);
    JS_FreeValue(ctx, args[1]);
    if (JS_IsException(answer)) fail("the bot raised an exception");
    int64_t v = 0;
    int bad = JS_ToInt64(ctx, &v, answer) != 0;
    JS_FreeValue(ctx, answer);
    if (bad) fail("the answer is not a 64-bit integer");
    return v;
}
