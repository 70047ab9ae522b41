// grundy serve's page: the state lives in the address (game, position, view, to, size,
// formula, first, hints); every answer comes from the JSON API, which runs the command line.
"use strict";

const $ = (id) => document.getElementById(id);
const VIEWS = ["answer", "sequence", "table", "play", "check", "script"];

// The address's state, and writing it back (push: a new history entry).
function readState() {
  const params = new URLSearchParams(location.search);
  const view = params.get("view");
  return {
    game: params.get("game") || "",
    position: params.get("position") || "",
    view: VIEWS.includes(view) ? view : "answer",
    to: params.get("to") || "",
    size: params.get("size") || "",
    formula: params.get("formula") || "",
    first: params.get("first") === "engine" ? "engine" : "me",
    hints: params.get("hints") === "1",
  };
}

function writeState(state, push) {
  const params = new URLSearchParams();
  if (state.game) params.set("game", state.game);
  if (state.position) params.set("position", state.position);
  if (state.view !== "answer") params.set("view", state.view);
  if (state.view === "sequence" && state.to) params.set("to", state.to);
  if (state.view === "table" && state.size) params.set("size", state.size);
  if (state.view === "check") {
    if (state.formula) params.set("formula", state.formula);
    if (state.to) params.set("to", state.to);
  }
  if (state.view === "play") {
    if (state.first === "engine") params.set("first", "engine");
    if (state.hints) params.set("hints", "1");
  }
  const address = "/?" + params.toString();
  if (push) history.pushState(null, "", address);
  else history.replaceState(null, "", address);
}

// The form's fields into the state.
function stateFromForm() {
  const state = readState();
  state.game = $("game").value.trim();
  state.position = $("position").value.trim();
  state.to = $("view-check").hidden ? $("to").value.trim() : $("check-to").value.trim();
  state.size = $("size").value.trim();
  state.formula = $("formula").value.trim();
  state.first = $("first").value;
  state.hints = $("hints").checked;
  return state;
}

function fillForm(state) {
  $("game").value = state.game;
  $("position").value = state.position;
  if (state.view === "check") {
    if (state.to) $("check-to").value = state.to;
  } else if (state.to) {
    $("to").value = state.to;
  }
  if (state.size || state.view === "table") $("size").value = state.size;
  $("formula").value = state.formula;
  $("first").value = state.first;
  $("hints").checked = state.hints;
}

// Errors: the command line's one-line message (with its did-you-mean).
function showError(message) {
  $("error").textContent = message;
  $("error").hidden = !message;
}

class ApiError extends Error {}

let pending = 0;
async function api(path, params, options) {
  const query = new URLSearchParams(params).toString();
  pending += 1;
  $("busy").hidden = false;
  try {
    const response = await fetch(path + (query ? "?" + query : ""), options);
    const type = response.headers.get("content-type") || "";
    if (type.startsWith("application/json")) {
      const body = await response.json();
      if (body.error && !response.ok) throw new ApiError(body.error.message);
      if (body.error) throw new ApiError(body.error.message);
      return body;
    }
    if (!response.ok) throw new ApiError(await response.text());
    return response.blob();
  } finally {
    pending -= 1;
    $("busy").hidden = pending === 0;
  }
}

// A position of the JSON contract as the command line writes it: `1 4 5`, or for a sum
// `nim 1 + wythoff 4,8` (the text `grundy moves` prints before `#`).
function positionText(to) {
  if (to.length && typeof to[0] === "object") {
    return to.map((part) => [part.game, ...part.position].join(" ")).join(" + ");
  }
  return to.join(" ");
}

// The game and position fields of a position object (`{"game", "position"}` or a sum's
// `{"game": "sum", "parts"}`): a sum's first game goes in the game field.
function fieldsOf(report) {
  if (report.game === "sum") {
    const [first, ...rest] = report.parts;
    const text = [first.position.join(" "), ...rest.map((part) => [part.game, ...part.position].join(" "))];
    return { game: first.game, position: text.join(" + ").trim() };
  }
  return { game: report.game, position: report.position.join(" ") };
}

// The fields after a move whose `to` is given (same shapes as fieldsOf).
function fieldsAfter(game, to) {
  if (to.length && typeof to[0] === "object") return fieldsOf({ game: "sum", parts: to });
  return { game, position: to.join(" ") };
}

function valueText(answer) {
  if (answer.value !== null && answer.value !== undefined) return answer.value;
  if (answer.infinite) return "∞(" + answer.infinite.join(",") + ")";
  return "—";
}

function clear(element) {
  while (element.firstChild) element.removeChild(element.firstChild);
}

// Views.
async function showAnswer(state) {
  const verdict = document.querySelector(".verdict");
  verdict.hidden = true;
  clear($("moves"));
  $("outcome").textContent = "";
  $("value").textContent = "";
  $("outcome-words").textContent = "";
  if (!state.game) return;
  const answer = await api("/api/answer", { game: state.game, position: state.position });
  $("outcome").textContent = answer.outcome;
  $("value").textContent = valueText(answer);
  verdict.hidden = false;
  const words = {
    N: "N: the player to move wins. Every winning move, as the position it leads to:",
    P: "P: the player to move loses: every move leads to an N-position.",
    D: "D: a draw with perfect play.",
  };
  $("outcome-words").textContent = words[answer.outcome] || "";
  for (const move of answer.moves) {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.className = "winning-move";
    const after = fieldsAfter(state.game, move.to);
    link.textContent = positionText(move.to);
    link.href = "/?" + new URLSearchParams({ game: after.game, position: after.position }).toString();
    link.title = "the answer for this position";
    const explain = document.createElement("span");
    explain.className = "explain";
    explain.textContent = move.explain;
    item.append(link, explain);
    $("moves").append(item);
  }
  if (answer.error) throw new ApiError(answer.error.message);
}

async function showPicture(image, params) {
  image.removeAttribute("src");
  const picture = await api("/api/plot", params);
  image.src = URL.createObjectURL(picture);
}

async function showSequence(state) {
  $("p-positions").textContent = "";
  $("sequence-plot").removeAttribute("src");
  if (!state.game) return;
  const to = state.to || "100";
  const sequence = await api("/api/sequence", { game: state.game, to });
  const zeros = [];
  sequence.values.forEach((value, heap) => {
    if (value === 0) zeros.push(heap);
  });
  const shown = zeros.slice(0, 200).join(", ") + (zeros.length > 200 ? ", …" : "");
  $("p-positions").textContent = `P-positions (G(n) = 0) among heaps 0 … ${to}: ${zeros.length ? shown : "none but the end"}`;
  await showPicture($("sequence-plot"), { game: state.game, to });
}

async function showTable(state) {
  $("table-plot").removeAttribute("src");
  if (!state.game) return;
  const params = { game: state.game };
  if (state.size) params.size = state.size;
  await showPicture($("table-plot"), params);
}

async function showCheck(state) {
  $("check-result").textContent = "";
  if (!state.game || !state.formula) return;
  const result = await api("/api/check", { game: state.game, formula: state.formula, to: state.to || "1000" });
  $("check-result").textContent = result.agrees
    ? `agrees on ${result.positions} positions${result.all_positions ? " (all of them)" : ""}`
    : result.report;
  $("check-result").className = result.agrees ? "agrees" : "disagrees";
}

// Play: the position lives in the address as it changes, so a reload goes on from it.
let game = null;

async function startPlay(state) {
  clear($("play-log"));
  clear($("play-options"));
  $("board").textContent = "";
  $("play-end").textContent = "";
  $("play-hint").textContent = "";
  game = null;
  if (!state.game) return;
  game = { game: state.game, position: state.position, hints: state.hints };
  await turn({ first: state.first });
}

async function playMove(typed) {
  if (!game || game.over) return;
  await turn({ move: typed });
}

async function turn(extra) {
  const params = { game: game.game, position: game.position, ...extra };
  if (game.hints) params.hints = "1";
  const { events } = await api("/api/play", params);
  // `play` reads `hint` only while the game goes on: its answer means it did.
  const hint = events.find((event) => event.event === "hint");
  game.over = !hint;
  let board = null;
  for (const event of events) {
    if (event.event === "position") board = event;
    if (["you", "grundy", "illegal"].includes(event.event)) {
      const item = document.createElement("li");
      item.className = "event-" + event.event;
      item.textContent = event.text;
      $("play-log").append(item);
    }
    if (event.event === "end" && game.over) $("play-end").textContent = event.text;
  }
  if (board) {
    Object.assign(game, fieldsOf(board.position));
    $("board").textContent = board.text;
    const state = readState();
    state.game = game.game;
    state.position = game.position;
    fillForm(state);
    writeState(state, false);
  }
  $("play-hint").textContent = game.hints && hint ? hint.text : "";
  $("move-form").hidden = game.over;
  clear($("play-options"));
  if (!game.over) await showOptions();
}

// Every move of the person, as buttons showing the position each leads to.
async function showOptions() {
  const answer = await api("/api/options", { game: game.game, position: game.position });
  for (const option of answer.options) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "option" + (game.hints && option.winning ? " winning" : "");
    button.textContent = positionText(option.to);
    button.title = option.move;
    button.addEventListener("click", () => run(() => playMove(option.move)));
    $("play-options").append(button);
  }
}

async function saveScript() {
  const text = $("script").value;
  const described = await api("/api/script", {}, { method: "POST", body: text, headers: { "content-type": "text/plain" } });
  $("script-result").textContent = `${described.game}\n${described.about || described.family.summary}`;
  const state = readState();
  state.game = described.game;
  state.view = "answer";
  state.position = state.position || "10";
  fillForm(state);
  writeState(state, true);
  await render();
}

// Runs one step of the page, showing its error, if any, in #error.
async function run(step) {
  showError("");
  try {
    await step();
  } catch (error) {
    showError(error instanceof ApiError ? error.message : "the server cannot be reached: " + error.message);
  }
}

async function render() {
  const state = readState();
  fillForm(state);
  for (const view of VIEWS) $("view-" + view).hidden = view !== state.view;
  for (const button of document.querySelectorAll("#views button")) {
    button.classList.toggle("current", button.dataset.view === state.view);
  }
  $("position").parentElement.hidden = ["sequence", "table", "check", "script"].includes(state.view);
  // The game field's button draws, checks or plays in the other views.
  $("go").textContent = state.view === "answer" ? "Answer" : "Go";
  const show = {
    answer: showAnswer,
    sequence: showSequence,
    table: showTable,
    play: startPlay,
    check: showCheck,
    script: async () => {},
  }[state.view];
  await run(() => show(state));
}

// Submitting any form: the fields into the address, then that state drawn.
function submitted(event) {
  event.preventDefault();
  const state = stateFromForm();
  writeState(state, true);
  render();
}

async function loadGameForms() {
  const rules = await api("/api/rules", {});
  for (const family of rules.games) {
    const option = document.createElement("option");
    option.value = family.syntax;
    option.label = family.summary;
    $("game-forms").append(option);
  }
  // Examples that need no file: one click each.
  $("examples").append("Try: ");
  for (const family of rules.games.filter((family) => !family.example.includes("&&")).slice(0, 8)) {
    const [, game, ...position] = family.example.split(" ");
    const link = document.createElement("a");
    link.href = "/?" + new URLSearchParams({ game, position: position.join(" ") }).toString();
    link.textContent = [game, ...position].join(" ");
    $("examples").append(link, " ");
  }
}

for (const form of ["position-form", "sequence-form", "table-form", "play-form", "check-form"]) {
  $(form).addEventListener("submit", submitted);
}
$("move-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const typed = $("move").value.trim();
  $("move").value = "";
  if (typed) run(() => playMove(typed));
});
$("script-go").addEventListener("click", () => run(saveScript));
for (const button of document.querySelectorAll("#views button")) {
  button.addEventListener("click", () => {
    const state = stateFromForm();
    state.view = button.dataset.view;
    if (state.view === "check") state.to = $("check-to").value.trim();
    if (state.view === "sequence") state.to = $("to").value.trim();
    writeState(state, true);
    render();
  });
}
window.addEventListener("popstate", render);
run(loadGameForms);
render();
