// Copy buttons (served as /copy.js; the page works without it, its text
// can be selected by hand): each `button.copy` has its `data-copy`
// element's text copied to the clipboard when pressed, and says so. The
// buttons are hidden until this script shows them.
(function () {
    "use strict";
    function copied(button, how) {
        button.textContent = how;
        setTimeout(function () { button.textContent = "Copy"; }, 2000);
    }
    function select(node) {
        var range = document.createRange();
        range.selectNodeContents(node);
        var chosen = window.getSelection();
        chosen.removeAllRanges();
        chosen.addRange(range);
    }
    // The text is selected and copied at once, in the press itself (as
    // every browser allows); where that is refused, by the clipboard API
    // (HTTPS only), else it is left selected to copy.
    function copy(button, node) {
        select(node);
        var done = false;
        try {
            done = document.execCommand("copy");
        } catch (e) {
            done = false;
        }
        if (done) {
            copied(button, "Copied");
        } else if (navigator.clipboard && window.isSecureContext) {
            navigator.clipboard.writeText(node.textContent).then(function () {
                copied(button, "Copied");
            }, function () {
                copied(button, "Selected: copy it");
            });
        } else {
            copied(button, "Selected: copy it");
        }
    }
    var buttons = document.querySelectorAll("button.copy[data-copy]");
    Array.prototype.forEach.call(buttons, function (button) {
        var node = document.getElementById(button.getAttribute("data-copy"));
        if (!node) {
            return;
        }
        button.hidden = false;
        button.addEventListener("click", function () {
            copy(button, node);
        });
    });
})();
