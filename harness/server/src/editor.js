// The bot.py editor's keys (served as /editor/editor.js; the editor works
// without it): Tab indents by four spaces and Enter keeps the line's
// indent, four more after a colon. Escape, then Tab, leaves the editor as
// Tab does elsewhere.
(function () {
    "use strict";
    var area = document.getElementById("source");
    if (!area) {
        return;
    }
    var escaped = false;
    function insert(text) {
        // Typed as the browser types, so Undo undoes it.
        if (!document.execCommand("insertText", false, text)) {
            area.setRangeText(text, area.selectionStart, area.selectionEnd, "end");
        }
    }
    area.addEventListener("keydown", function (e) {
        var leaving = escaped;
        escaped = e.key === "Escape";
        if (e.ctrlKey || e.altKey || e.metaKey || e.shiftKey) {
            return;
        }
        if (e.key === "Tab" && !leaving) {
            e.preventDefault();
            insert("    ");
        } else if (e.key === "Enter" && area.selectionStart === area.selectionEnd) {
            var text = area.value.slice(0, area.selectionStart);
            var line = text.slice(text.lastIndexOf("\n") + 1);
            var indent = line.match(/^ */)[0] + (/:\s*$/.test(line) ? "    " : "");
            e.preventDefault();
            insert("\n" + indent);
        }
    });
})();
