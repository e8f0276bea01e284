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
    // Without the clipboard API (a page not served over HTTPS): the text
    // is selected and copied the old way, or left selected to copy.
    function fallback(button, node) {
        select(node);
        var done = false;
        try {
            done = document.execCommand("copy");
        } catch (e) {
            done = false;
        }
        copied(button, done ? "Copied" : "Selected: copy it");
    }
    var buttons = document.querySelectorAll("button.copy[data-copy]");
    Array.prototype.forEach.call(buttons, function (button) {
        var node = document.getElementById(button.getAttribute("data-copy"));
        if (!node) {
            return;
        }
        button.hidden = false;
        button.addEventListener("click", function () {
            var text = node.textContent;
            if (navigator.clipboard && window.isSecureContext) {
                navigator.clipboard.writeText(text).then(function () {
                    copied(button, "Copied");
                }, function () {
                    fallback(button, node);
                });
            } else {
                fallback(button, node);
            }
        });
    });
})();
