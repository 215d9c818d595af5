// Filter buttons: show all sentences, or only those of one status. Without
// JavaScript every sentence shows and the buttons stay hidden.
(function () {
  "use strict";
  var bar = document.querySelector(".filters");
  if (!bar) { return; }
  var buttons = bar.querySelectorAll("button[data-filter]");
  var sentences = document.querySelectorAll("li.sentence");
  var sections = document.querySelectorAll(".rb-section");
  var empty = document.querySelector(".filter-empty");

  function show(filter) {
    var shown = 0;
    sentences.forEach(function (li) {
      li.hidden = filter !== "all" && li.getAttribute("data-status") !== filter;
      if (!li.hidden) { shown += 1; }
    });
    sections.forEach(function (section) {
      section.hidden = !section.querySelector("li.sentence:not([hidden])");
    });
    buttons.forEach(function (button) {
      button.setAttribute("aria-pressed", String(button.getAttribute("data-filter") === filter));
    });
    empty.hidden = shown > 0;
    document.body.setAttribute("data-filter", filter);
  }

  // a link to something the filter hides (a section row, a sentence number) shows everything
  function reveal() {
    var id = decodeURIComponent(window.location.hash.slice(1));
    var target = id && document.getElementById(id);
    if (target && target.closest("[hidden]")) {
      show("all");
      target.scrollIntoView();
    }
  }

  buttons.forEach(function (button) {
    button.addEventListener("click", function () { show(button.getAttribute("data-filter")); });
  });
  window.addEventListener("hashchange", reveal);
  bar.hidden = false;
  show("all");
  reveal();
}());
