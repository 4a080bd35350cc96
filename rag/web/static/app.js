// Small enhancements; every page works without them. No inline script: the CSP allows only this file.
"use strict";

// Search: pointing at a row marks the same person in the other lists.
document.querySelectorAll(".lists .row").forEach((row) => {
  const same = () => document.querySelectorAll(`.lists .row[data-cv="${CSS.escape(row.dataset.cv)}"]`);
  row.addEventListener("mouseenter", () => same().forEach((r) => r.classList.add("same")));
  row.addEventListener("mouseleave", () => same().forEach((r) => r.classList.remove("same")));
});

// Search: "How each retriever ranked them" stays as this browser last left it, open or closed.
const retrievers = document.querySelector("details.retrievers");
if (retrievers) {
  const key = "cv-rag.retrievers-open";
  try {
    if (localStorage.getItem(key) === "1") retrievers.open = true;
    retrievers.addEventListener("toggle", () => localStorage.setItem(key, retrievers.open ? "1" : "0"));
  } catch (e) { /* storage refused (private mode): the lists simply start folded */ }
}

// Search, below tablet width: the fused list comes first (it is first in the page) and the other
// two fold, a tap (or Enter on their heading) away.
if (window.matchMedia("(max-width: 767px)").matches) {
  document.querySelectorAll('.lists .list:not([data-list="fused"]) > details').forEach((d) => { d.open = false; });
}

// Match: a heading's button sorts the table by its column (again: the other way). Buttons take
// Enter and Space from the keyboard as they take a click.
document.querySelectorAll("table.sortable").forEach((table) => {
  const heads = Array.from(table.tHead.rows[0].cells);
  heads.forEach((th, column) => {
    const button = th.querySelector("button.sort");
    if (!th.dataset.sort || !button) return;
    button.addEventListener("click", () => {
      const descending = th.getAttribute("aria-sort") !== "descending";
      heads.forEach((h) => h.removeAttribute("aria-sort"));
      th.setAttribute("aria-sort", descending ? "descending" : "ascending");
      const value = (row) => row.cells[column].dataset.value ?? row.cells[column].textContent;
      const compare = th.dataset.sort === "number"
        ? (a, b) => (parseFloat(value(a)) || 0) - (parseFloat(value(b)) || 0)
        : (a, b) => value(a).localeCompare(value(b));
      const body = table.tBodies[0];
      Array.from(body.rows)
        .sort((a, b) => (descending ? -compare(a, b) : compare(a, b)))
        .forEach((row) => body.appendChild(row));
    });
  });
});

// Match: a requirement's mark opens its evidence when the keyboard brings the focus to it (a tap
// or Enter opens it without this script: it is a <details>).
// A focus that comes with a press of the mouse or a finger is left to the click's own toggle.
let pressing = false;
document.addEventListener("pointerdown", () => { pressing = true; }, true);
document.addEventListener("keydown", () => { pressing = false; }, true);
document.querySelectorAll("details.why").forEach((why) => {
  const mark = why.querySelector("summary");
  mark.addEventListener("focus", () => { if (!pressing) why.open = true; });
  // Closed again when the keyboard moves on; a tap elsewhere leaves it (no cell jumps under a finger).
  why.addEventListener("focusout", (event) => { if (!pressing && !why.contains(event.relatedTarget)) why.open = false; });
});

// Add CVs: files dropped on the box are the form's, sent at once; while a build runs, its
// progress is asked every half second and the bar moves; once it ends the page shows the outcome.
const upload = document.querySelector("form.upload");
if (upload) {
  const drop = upload.querySelector(".drop");
  const input = upload.querySelector("input[type=file]");
  ["dragenter", "dragover"].forEach((kind) => drop.addEventListener(kind, (event) => {
    event.preventDefault();
    drop.classList.add("over");
  }));
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (event) => {
    event.preventDefault();
    drop.classList.remove("over");
    input.files = event.dataTransfer.files;
    upload.requestSubmit();
  });
}
const job = document.querySelector("section.job[data-finished=no]");
if (job) {
  const bar = job.querySelector("progress.build");
  const stage = job.querySelector(".stage");
  const ask = () => fetch(`/upload/progress?job=${encodeURIComponent(job.dataset.job)}`, { cache: "no-store" })
    .then((answer) => answer.json())
    .then((state) => {
      bar.value = state.percent;
      bar.textContent = `${state.percent}%`;
      stage.textContent = state.stage_text;
      if (state.finished) location.reload();
      else setTimeout(ask, 500);
    })
    .catch(() => setTimeout(ask, 2000));
  ask();
}

// Candidate: open at the first highlighted line.
const first = document.querySelector("svg.sheet rect.hit, .text-page mark");
if (first && !location.hash) first.scrollIntoView({ block: "center" });
