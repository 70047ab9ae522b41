// grundy serve's page: the state lives in the address (game, position, view, to, size,
// formula, first, moves, judge, lang); every answer comes from the JSON API, which runs the
// command line. Each step of the page (a view drawn, a move) takes a new sequence number:
// an answer that comes back after a later step began is dropped, never shown.
"use strict";

const $ = (id) => document.getElementById(id);
const VIEWS = ["answer", "sequence", "table", "play", "check", "guess", "script"];
/// Options shown at once: a heap of 100000 has 100000 of them.
const PAGE = 40;
/// The separator of the positions in `moves=` (no position of the command line holds one).
const MOVES_SEPARATOR = ";";
/// The name of the empty position, no component left (Kayles' last pin taken), in the page's
/// fields and links; `grundy play` reads it as the move that leaves nothing.
const EMPTY = "()";

/// The compounds other than the sum (Winning Ways ch. 9), as the API's `compound=` names them.
const COMPOUNDS = ["every", "conjunctive", "selective"];

// The page's words, in English and Chinese. `<html lang>` (set by the server from `?lang=` or
// the browser's Accept-Language) chooses.
const WORDS = {
  en: {
    tagline: "Impartial games: who wins, the Grundy value, every winning move.",
    game: "Game",
    position: "Position",
    "position-placeholder": "3 4 5   (a sum: 3 + wythoff 4,7)",
    answer: "Answer",
    go: "Go",
    judge: "judge every move (outcome and value of the position it leads to)",
    views: "views",
    "view-sequence": "Nim-sequence",
    "view-table": "Table",
    "view-play": "Play",
    "view-check": "Check a formula",
    "view-script": "Your own game",
    busy: "computing…",
    outcome: "outcome",
    value: "Grundy value",
    "every-move": "Every move, judged",
    "sequence-to": "G(0) … G(N), N =",
    draw: "Draw",
    "sequence-alt": "the nim-sequence",
    "table-size": "side N =",
    "table-note": "two-heap games (wythoff, corners, product:A:B); leave N empty for a graph game",
    "table-alt": "the table",
    first: "First",
    "first-me": "you move first",
    "first-engine": "grundy moves first",
    "play-start": "Play from this position",
    undo: "Undo",
    redo: "Redo",
    "your-moves": "your moves",
    "type-move": "or type a move (the position it leads to, or 3 -> 1)",
    move: "Move",
    history: "Moves",
    formula: "Formula over the heap n",
    "check-to": "heaps 0 … N, N =",
    check: "Check",
    "check-note": 'An int is the value, a bool says whether the player to move wins, "P"/"N" the outcome (as grundy check --formula).',
    "script-note": "A game as a Starlark script (grundy rules --write-examples DIR writes examples): it runs in a watched worker with the command line's limits.",
    "script-label": "Your game's script",
    "script-go": "Use this game",
    footer: "A link to this page shows the same thing to someone else: the state is in the address.",
    "words-N": "N: the player to move wins. Every winning move, as the position it leads to:",
    "words-P": "P: the player to move loses: every move leads to an N-position.",
    "words-D": "D: a draw with perfect play.",
    "answer-title": "the answer for this position",
    "no-moves": (why) => `Its moves are not listed: ${why}`,
    "outcome-N": "N-position",
    "outcome-P": "P-position",
    "outcome-D": "draw",
    "winning-move": "a winning move",
    "losing-move": "a losing move",
    "option-label": (position, outcome, value, verdict) => `${position}: ${outcome}, value ${value}, ${verdict}`,
    "page-of": (first, last, total) => `moves ${first}–${last} of ${total}`,
    previous: "previous",
    next: "next",
    you: "you",
    grundy: "grundy",
    "you-to-move": "your move",
    "grundy-moved": (position) => `grundy moved to ${position}; your move`,
    "grundy-moved-last": (position) => `grundy moved to ${position}.`,
    "you-lose": "you have no move: grundy wins.",
    "you-win": "grundy has no move: you win!",
    "replayed-illegal": (number, position) => `move ${number} of the address (${position}) is not legal there: the game goes on from the move before it`,
    "p-positions": (to, list) => `P-positions (G(n) = 0) among heaps 0 … ${to}: ${list}`,
    "none-but-end": "none but the end",
    agrees: (positions, all) => `agrees on ${positions} positions${all ? " (all of them)" : ""}`,
    unreachable: (message) => "the server cannot be reached: " + message,
    "try": "Try: ",
    "nim-sum": "The nim-sum, worked in binary: the player to move wins exactly when it is not 0 (Bouton's theorem).",
    "nim-sum-row": "nim-sum",
    heap: "heap",
    rules: "Rules: ",
    "hint-P": "a P-position: every move loses against perfect play",
    "hint-N": "an N-position: a move to a P-position wins",
    "picture-note": "Click a heap or a cell to see its answer.",
    language: "中文",
    misere: "misère play (whoever moves last loses)",
    "view-guess": "Guess",
    "guess-note": "The pattern of the game's values (grundy guess): proved where a theorem proves it, else checked far beyond where it was fitted; and the code it gives, to paste into a solution.",
    copy: "Copy",
    copied: "Copied",
    "guess-proved": (proof) => `proved: ${proof}`,
    "guess-checked": (fitted, checked) => `checked, not proved: fitted to ${fitted}, checked to ${checked}`,
    "guess-none": (tried) => `No pattern found. Tried: ${tried}`,
    "misere-words-N": "N in misère play: the player to move wins. Every winning move:",
    "misere-words-P": "P in misère play: the player to move loses.",
    "misere-no-options": (method) => `Decided ${method}. In misère play the Grundy value does not decide the game: only the winning moves are listed.`,
    "queen-board": (x, y) => `Wythoff's game as a queen on a board at column ${x}, row ${y}: she moves left, down or diagonally down-left; whoever brings her to the corner 0,0 wins. The marked squares are the P-positions, the pairs (⌊kφ⌋, ⌊kφ²⌋) and their mirrors.`,
    "queen-cell": (x, y, p) => `${x},${y}${p ? ", P-position" : ""}`,
    compound: "Components combined as",
    "compound-sum": "the disjunctive sum",
    "compound-every": "Every-SG",
    "compound-conjunctive": "the conjunctive compound",
    "compound-selective": "the selective compound",
    "rule-sum": "The disjunctive sum: each turn the player moves in exactly one component; whoever cannot move loses. By the Sprague–Grundy theorem the value is the nim-sum of the components' values.",
    "rule-every": "Every-SG (the continued conjunctive compound, Winning Ways ch. 9): each turn the player moves in every component that can still move; whoever cannot move loses. Each component's step count decides: the player to move wins exactly when the largest step is odd.",
    "rule-conjunctive": "The conjunctive compound (Winning Ways ch. 9): each turn the player moves in every component, and play ends as soon as one component cannot move; whoever cannot move loses. Remoteness decides: the player to move wins exactly when the smallest remoteness is odd.",
    "rule-selective": "The selective compound (Winning Ways ch. 9): each turn the player moves in any non-empty set of components; whoever cannot move loses. The player to move wins exactly when some component is an N-position.",
    "number-every": "step",
    "number-conjunctive": "remoteness",
    "number-selective": "components",
    "numbers-every": (each) => `the largest of the components' steps ${each}`,
    "numbers-conjunctive": (each) => `the smallest of the components' remotenesses ${each}`,
    "numbers-selective": () => "each component's outcome",
    "compound-words-N": "N: the player to move wins. Every winning move (one move in each component moved), as the position it leads to:",
    "compound-words-P": "P: the player to move loses: every move leads to an N-position.",
    "compound-option-label": (position, outcome, verdict) => `${position}: ${outcome}, ${verdict}`,
    "empty-name": "the empty position",
    "mex-line": (component, values, value) => `G(${component}) = mex{${values}} = ${value}: the least value that no move reaches (the mex rule of the Sprague–Grundy theory; each option's value is that of the whole position it leads to).`,
    "too-large-to-play": "Play needs every move listed: play from a smaller position (Answer still gives the winning moves).",
    "empty-board": "nothing left: no component remains",
    "empty-words": "() is the empty position: no component is left, so the player to move has no move.",
    "empty-words-misere": "() is the empty position: no component is left, so the player to move has no move, and in misère play wins.",
    "game-over": (moves, yours, grundys) => `The game is over after ${moves} move${moves === 1 ? "" : "s"}: ${yours} by you, ${grundys} by grundy.`,
  },
  zh: {
    tagline: "公平组合游戏：谁必胜、Grundy 值、每一步必胜着法。",
    game: "游戏",
    position: "局面",
    "position-placeholder": "3 4 5   （和：3 + wythoff 4,7）",
    answer: "解答",
    go: "开始",
    judge: "评判每一步（所到局面的胜负与 Grundy 值）",
    views: "视图",
    "view-sequence": "Nim 序列",
    "view-table": "表格",
    "view-play": "对弈",
    "view-check": "检验公式",
    "view-script": "自定义游戏",
    busy: "计算中…",
    outcome: "胜负",
    value: "Grundy 值",
    "every-move": "每一步着法及其评判",
    "sequence-to": "G(0) … G(N)，N =",
    draw: "绘制",
    "sequence-alt": "Nim 序列图",
    "table-size": "边长 N =",
    "table-note": "双堆游戏（wythoff、corners、product:A:B）；图游戏请将 N 留空",
    "table-alt": "数值表",
    first: "先手",
    "first-me": "你先走",
    "first-engine": "grundy 先走",
    "play-start": "从此局面开始对弈",
    undo: "悔棋",
    redo: "重做",
    "your-moves": "你的着法",
    "type-move": "或输入一步（所到的局面，或 3 -> 1）",
    move: "走",
    history: "棋谱",
    formula: "关于堆大小 n 的公式",
    "check-to": "堆 0 … N，N =",
    check: "检验",
    "check-note": "整数表示 Grundy 值，布尔值表示先手是否必胜，\"P\"/\"N\" 表示胜负（同 grundy check --formula）。",
    "script-note": "用 Starlark 脚本写一个游戏（grundy rules --write-examples DIR 会写出示例）：它在受监控的子进程中运行，限制与命令行相同。",
    "script-label": "你的游戏脚本",
    "script-go": "使用这个游戏",
    footer: "把本页链接发给别人，对方看到的内容相同：状态都在地址里。",
    "words-N": "N：先手（轮到走的一方）必胜。每一步必胜着法（以所到的局面表示）：",
    "words-P": "P：先手必败：每一步都走到 N 局面。",
    "words-D": "D：双方都走最优时为和局。",
    "answer-title": "查看这个局面的解答",
    "no-moves": (why) => `着法未列出：${why}`,
    "outcome-N": "N 局面",
    "outcome-P": "P 局面",
    "outcome-D": "和局",
    "winning-move": "必胜着法",
    "losing-move": "败着",
    "option-label": (position, outcome, value, verdict) => `${position}：${outcome}，Grundy 值 ${value}，${verdict}`,
    "page-of": (first, last, total) => `第 ${first}–${last} 步，共 ${total} 步`,
    previous: "上一页",
    next: "下一页",
    you: "你",
    grundy: "grundy",
    "you-to-move": "轮到你走",
    "grundy-moved": (position) => `grundy 走到了 ${position}；轮到你走`,
    "grundy-moved-last": (position) => `grundy 走到了 ${position}。`,
    "you-lose": "你无棋可走：grundy 获胜。",
    "you-win": "grundy 无棋可走：你赢了！",
    "replayed-illegal": (number, position) => `地址中的第 ${number} 步（${position}）在那里不合规则：从它之前的一步继续`,
    "p-positions": (to, list) => `堆 0 … ${to} 中的 P 局面（G(n) = 0）：${list}`,
    "none-but-end": "只有终局",
    agrees: (positions, all) => `在 ${positions} 个局面上一致${all ? "（全部局面）" : ""}`,
    unreachable: (message) => "无法连接服务器：" + message,
    "try": "试试：",
    "nim-sum": "用二进制计算 Nim 和：它不为 0 时先手必胜（Bouton 定理）。",
    "nim-sum-row": "Nim 和",
    heap: "堆",
    rules: "规则（grundy rules，英文）：",
    "hint-P": "P 局面：对手走最优时每一步都会输",
    "hint-N": "N 局面：走到 P 局面的一步必胜",
    "picture-note": "点击某一堆或某一格查看它的解答。",
    language: "English",
    misere: "反常规则（走最后一步者输）",
    "view-guess": "找规律",
    "guess-note": "游戏 SG 值的规律（grundy guess）：有定理时给出证明，否则在远超拟合范围处检验；以及它生成的代码，可直接粘贴进题解。",
    copy: "复制",
    copied: "已复制",
    "guess-proved": (proof) => `已证明：${proof}`,
    "guess-checked": (fitted, checked) => `已检验、未证明：拟合到 ${fitted}，检验到 ${checked}`,
    "guess-none": (tried) => `没有找到规律。尝试过：${tried}`,
    "misere-words-N": "反常规则下的 N：先手必胜。每一步必胜着法：",
    "misere-words-P": "反常规则下的 P：先手必败。",
    "misere-no-options": (method) => `判定方法：${method}。反常规则下 Grundy 值不能决定胜负：只列出必胜着法。`,
    "queen-board": (x, y) => `Wythoff 游戏即棋盘上的一个皇后，位于第 ${x} 列、第 ${y} 行：她可向左、向下或向左下斜走；把她走到角落 0,0 的一方获胜。标记的格子是 P 局面，即 (⌊kφ⌋, ⌊kφ²⌋) 及其对称。`,
    "queen-cell": (x, y, p) => `${x},${y}${p ? "，P 局面" : ""}`,
    compound: "各分量的组合方式",
    "compound-sum": "析取和（普通的游戏和）",
    "compound-every": "Every-SG",
    "compound-conjunctive": "合取和",
    "compound-selective": "选择和",
    "rule-sum": "析取和：每回合只在一个分量中走一步；无法走者输。由 Sprague–Grundy 定理，SG 值是各分量 SG 值的异或和。",
    "rule-every": "Every-SG（连续合取和，Winning Ways 第 9 章）：每回合在每个还能走的分量中各走一步；无法走者输。由各分量的步数判定：最大步数为奇数时先手必胜。",
    "rule-conjunctive": "合取和（Winning Ways 第 9 章）：每回合在每个分量中各走一步，只要有一个分量无法再走，游戏就结束；无法走者输。由 remoteness（剩余步数）判定：最小的 remoteness 为奇数时先手必胜。",
    "rule-selective": "选择和（Winning Ways 第 9 章）：每回合在任意非空的一组分量中各走一步；无法走者输。只要有一个分量是 N 局面，先手就必胜。",
    "number-every": "步数",
    "number-conjunctive": "remoteness",
    "number-selective": "各分量",
    "numbers-every": (each) => `各分量步数 ${each} 中的最大值`,
    "numbers-conjunctive": (each) => `各分量 remoteness ${each} 中的最小值`,
    "numbers-selective": () => "各分量的胜负",
    "compound-words-N": "N：先手必胜。每一步必胜着法（在所走的每个分量中各一步），以所到的局面表示：",
    "compound-words-P": "P：先手必败：每一步都走到 N 局面。",
    "compound-option-label": (position, outcome, verdict) => `${position}：${outcome}，${verdict}`,
    "empty-name": "空局面",
    "mex-line": (component, values, value) => `SG(${component}) = mex{${values}} = ${value}：后继局面的 SG 值中没有出现的最小非负整数（mex 规则；每个后继的 SG 值是它所到的整个局面的值）。`,
    "too-large-to-play": "对弈需要列出全部着法：请从较小的局面开始（“解答”仍会给出必胜着法）。",
    "empty-board": "什么都不剩：没有分量了",
    "empty-words": "() 是空局面：一个分量都不剩，轮到走的一方无棋可走。",
    "empty-words-misere": "() 是空局面：一个分量都不剩，轮到走的一方无棋可走；在反常规则下他获胜。",
    "game-over": (moves, yours, grundys) => `对局结束，共 ${moves} 步：你走了 ${yours} 步，grundy 走了 ${grundys} 步。`,
  },
};

const LANGUAGE = document.documentElement.lang.startsWith("zh") ? "zh" : "en";

function t(key, ...args) {
  const word = WORDS[LANGUAGE][key] ?? WORDS.en[key];
  return typeof word === "function" ? word(...args) : word;
}

function translatePage() {
  for (const element of document.querySelectorAll("[data-t]")) element.textContent = t(element.dataset.t);
  for (const element of document.querySelectorAll("[data-t-placeholder]")) element.placeholder = t(element.dataset.tPlaceholder);
  for (const element of document.querySelectorAll("[data-t-label]")) element.setAttribute("aria-label", t(element.dataset.tLabel));
  for (const element of document.querySelectorAll("[data-t-alt]")) element.alt = t(element.dataset.tAlt);
  const other = LANGUAGE === "zh" ? "en" : "zh";
  $("language-link").lang = other === "zh" ? "zh-CN" : "en";
  $("language-link").textContent = t("language");
}

// The address's state, and writing it back (push: a new history entry).
function readState() {
  const params = new URLSearchParams(location.search);
  const view = params.get("view");
  const moves = params.get("moves");
  return {
    game: params.get("game") || "",
    position: params.get("position") || "",
    view: VIEWS.includes(view) ? view : "answer",
    to: params.get("to") || "",
    size: params.get("size") || "",
    formula: params.get("formula") || "",
    first: params.get("first") === "engine" ? "engine" : "me",
    moves: moves ? moves.split(MOVES_SEPARATOR).map((move) => move.trim()).filter(Boolean) : [],
    judge: params.get("judge") !== "0",
    misere: params.get("misere") === "1",
    compound: COMPOUNDS.includes(params.get("compound")) ? params.get("compound") : "sum",
    lang: params.get("lang") || "",
  };
}

function addressOf(state) {
  const params = new URLSearchParams();
  if (state.lang) params.set("lang", state.lang);
  if (state.game) params.set("game", state.game);
  if (state.position) params.set("position", state.position);
  if (state.view !== "answer") params.set("view", state.view);
  if (state.view === "sequence" && state.to) params.set("to", state.to);
  if (state.view === "table" && state.size) params.set("size", state.size);
  if (state.view === "guess" && state.to) params.set("to", state.to);
  if (state.view === "check") {
    if (state.formula) params.set("formula", state.formula);
    if (state.to) params.set("to", state.to);
  }
  if (state.view === "play") {
    if (state.first === "engine") params.set("first", "engine");
    if (state.moves.length) params.set("moves", state.moves.join(MOVES_SEPARATOR));
  }
  if (!state.judge) params.set("judge", "0");
  if (state.view === "answer" && state.misere && state.compound === "sum") params.set("misere", "1");
  if (["answer", "play"].includes(state.view) && state.compound !== "sum") params.set("compound", state.compound);
  return "/?" + params.toString();
}

function writeState(state, push) {
  const address = addressOf(state);
  if (push) history.pushState(null, "", address);
  else history.replaceState(null, "", address);
}

// Positions typed with a Chinese input method: full-width digits, `，`, `＋` and the
// ideographic space read as the command line's (the server does the same).
function asciiWidth(text) {
  return text.replace(/[\uFF01-\uFF5E]/g, (character) => String.fromCharCode(character.charCodeAt(0) - 0xfee0)).replace(/\u3000/g, " ");
}

// The form's fields into the state (a new game: no moves yet).
function stateFromForm() {
  const state = readState();
  state.game = asciiWidth($("game").value).trim();
  state.position = asciiWidth($("position").value).trim();
  state.to = $("view-check").hidden ? $("to").value.trim() : $("check-to").value.trim();
  state.size = $("size").value.trim();
  state.formula = $("formula").value.trim();
  state.first = $("first").value;
  state.judge = $("judge").checked;
  state.misere = $("misere").checked;
  state.compound = $("compound").value;
  state.moves = [];
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
  $("judge").checked = state.judge;
  $("misere").checked = state.misere && state.compound === "sum";
  // Misère play is of the sum only.
  $("misere").disabled = state.compound !== "sum";
  $("compound").value = state.compound;
}

// The compound's rule in one sentence, shown in Answer and Play.
function showCompoundRule(state) {
  $("compound-rule").textContent = t("rule-" + state.compound);
}

// The number that decides a compound (Every-SG's step, the conjunctive compound's remoteness,
// the selective compound's components' outcomes), as `moves --compound --json` gives it.
// Returns the number and, in words, where it comes from.
function compoundNumber(answer) {
  if (answer.compound === "every") return [String(answer.step), t("numbers-every", answer.steps.join(", "))];
  if (answer.compound === "conjunctive") return [String(answer.remoteness), t("numbers-conjunctive", answer.remotenesses.join(", "))];
  return [(answer.outcomes || []).join(", "), t("numbers-selective")];
}

// A compound's moves (`moves --all --compound`) as options: each judged by the outcome of the
// position it leads to (a winning move leads to a P-position).
function compoundOptions(answer) {
  if (!answer.compound) return answer;
  const options = (answer.moves || []).map((move) => ({ to: move.to, move: move.move, outcome: move.wins ? "P" : "N", compound: true }));
  return { ...answer, options };
}

// Errors: the command line's one-line message (with its did-you-mean).
function showError(message) {
  $("error").textContent = message;
  $("error").hidden = !message;
}

class ApiError extends Error {
  constructor(message, kind) {
    super(message);
    this.kind = kind || "error";
  }
}
/// An answer to a step the page has since left: dropped.
class Stale extends Error {}

// The sequence number of the page's latest step.
let latestStep = 0;
function newStep() {
  latestStep += 1;
  return latestStep;
}

// This tab's client token, sent with every request (X-Grundy-Client): the server shares its
// turns fairly between addresses, then between the tabs of one address (local users of one
// machine), told apart by this token. Random, kept for the tab's life (sessionStorage).
function clientToken() {
  const key = "grundy-client";
  let token = null;
  try {
    token = sessionStorage.getItem(key);
  } catch (_) {
    // Storage refused (a sandboxed frame): a token for this page load.
  }
  if (!token || !/^[A-Za-z0-9_-]{1,64}$/.test(token)) {
    const bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);
    token = Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
    try {
      sessionStorage.setItem(key, token);
    } catch (_) {
      // Kept in memory only.
    }
  }
  clientToken.value = token;
  return token;
}

let pending = 0;
// `step`: the sequence number of the step asking; its answer is dropped (`Stale`) if a later
// step began meanwhile.
async function api(path, params, step, options) {
  const query = new URLSearchParams(params);
  if (step) query.set("seq", String(step));
  pending += 1;
  $("busy").hidden = false;
  try {
    const headers = new Headers((options && options.headers) || {});
    headers.set("X-Grundy-Client", clientToken.value || clientToken());
    const response = await fetch(path + "?" + query.toString(), { ...options, headers });
    const type = response.headers.get("content-type") || "";
    let body;
    if (type.startsWith("application/json")) {
      body = await response.json();
    } else if (!response.ok) {
      body = { error: { message: await response.text() } };
    } else {
      body = await response.blob();
    }
    if (step && step !== latestStep) throw new Stale();
    if (body.error) throw new ApiError(body.error.message, body.error.kind);
    return body;
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
  // A game with no component left (inside a sum, its game word alone says so).
  return to.length ? to.join(" ") : EMPTY;
}

// The game and position fields of a position object (`{"game", "position"}` or a sum's
// `{"game": "sum", "parts"}`): a sum's first game goes in the game field.
function fieldsOf(report) {
  if (report.game === "sum") {
    const [first, ...rest] = report.parts;
    const text = [first.position.join(" "), ...rest.map((part) => [part.game, ...part.position].join(" "))];
    return { game: first.game, position: text.join(" + ").trim() };
  }
  return { game: report.game, position: report.position.join(" ") || EMPTY };
}

// Whether the game and position fields make a sum (a lone `+` among their words).
function isSum(game, position) {
  return (game + " " + position).split(/\s+/).includes("+");
}

// The API's fields of a position of a game written as `positionText` writes it: a sum names
// its first game, a single game's position is its components alone.
function fieldsOfText(sum, game, text) {
  if (sum) {
    const [first, ...rest] = text.split(/\s+/);
    return { game: first, position: rest.join(" ") };
  }
  return { game: game.split(/\s+/)[0], position: text };
}

function valueText(answer) {
  if (answer.value !== null && answer.value !== undefined) return answer.value;
  if (answer.infinite) return "∞(" + answer.infinite.join(",") + ")";
  return "—";
}

function clear(element) {
  while (element.firstChild) element.removeChild(element.firstChild);
}

function addressFor(game, position) {
  const state = readState();
  return addressOf({ ...state, game, position, view: "answer", moves: [] });
}

// One option, judged: the position it leads to, its outcome and value, coloured (a move to a
// P-position wins, to an N-position loses). In Answer a link to that position; in Play a button.
function optionElement(option, game, judged, asButton) {
  const text = positionText(option.to);
  const element = document.createElement(asButton ? "button" : "a");
  element.className = "option";
  element.dataset.position = text;
  element.dataset.outcome = option.outcome;
  element.dataset.value = valueText(option);
  const shown = document.createElement("span");
  shown.className = "to";
  shown.textContent = shownText(text);
  element.append(shown);
  if (judged) {
    element.classList.add("outcome-" + option.outcome);
    const judgment = document.createElement("span");
    judgment.className = "judgment";
    judgment.textContent = option.compound ? option.outcome : `${option.outcome} · ${valueText(option)}`;
    element.append(judgment);
    const verdict = option.outcome === "P" ? t("winning-move") : option.outcome === "N" ? t("losing-move") : t("outcome-D");
    const label = option.compound
      ? t("compound-option-label", text, t("outcome-" + option.outcome), verdict)
      : t("option-label", text, t("outcome-" + option.outcome), valueText(option), verdict);
    element.setAttribute("aria-label", text === EMPTY ? label.replace(EMPTY, shown.textContent) : label);
  }
  if (option.move) element.dataset.move = option.move;
  if (asButton) {
    element.type = "button";
  } else {
    const after = fieldsAfter(game, option.to);
    element.href = addressFor(after.game, after.position);
    element.title = t("answer-title");
  }
  return element;
}

// The fields after a move whose `to` is given (same shapes as fieldsOf).
// Where a move of `answer` leads. `moves --json` leaves out `to` for positions of many
// components (their lists would grow with the square of the heaps): it is rebuilt from the
// component moved (`part`, `component`) and what replaces it (`after`).
function moveTo(answer, move) {
  if (move.to) return move.to;
  const replace = (components, index) => [...components.slice(0, index - 1), ...move.after, ...components.slice(index)];
  if (answer.game === "sum") {
    return answer.parts.map((part, index) =>
      index + 1 === move.part ? { ...part, position: replace(part.position, move.component) } : part,
    );
  }
  return replace(answer.position, move.component);
}

function fieldsAfter(game, to) {
  if (to.length && typeof to[0] === "object") return fieldsOf({ game: "sum", parts: to });
  return { game, position: to.join(" ") || EMPTY };
}

// A position's text as shown: the empty position with its name.
function shownText(text) {
  return text === EMPTY ? `${EMPTY} ${t("empty-name")}` : text;
}

// Whether the fields are the empty position of one game (no component left): it has no move,
// by the definition, so nothing is asked of the server about it.
function isEmptyPosition(game, position) {
  return position.trim() === EMPTY && !isSum(game, "");
}

// A page of options: its list and the pager's buttons.
function showOptionsPage(answer, container, pager, game, judged, asButton, turnPage) {
  clear(container);
  clear(pager);
  for (const option of answer.options) {
    container.append(optionElement({ ...option, to: moveTo(answer, option) }, game, judged, asButton));
  }
  const total = answer.options_total ?? answer.options.length;
  pager.hidden = total <= PAGE;
  if (total <= PAGE) return;
  const first = answer.offset + 1;
  const last = answer.offset + answer.options.length;
  const words = document.createElement("span");
  words.textContent = t("page-of", first, last, total);
  const previous = document.createElement("button");
  previous.type = "button";
  previous.textContent = t("previous");
  previous.disabled = answer.offset === 0;
  previous.addEventListener("click", () => turnPage(Math.max(0, answer.offset - PAGE)));
  const next = document.createElement("button");
  next.type = "button";
  next.textContent = t("next");
  next.disabled = last >= total;
  next.addEventListener("click", () => turnPage(answer.offset + PAGE));
  pager.append(previous, words, next);
}

// Views.
async function showAnswer(state, step) {
  const verdict = document.querySelector(".verdict");
  verdict.hidden = true;
  clear($("moves"));
  clear($("answer-options"));
  $("answer-pages").hidden = true;
  $("answer-options-heading").hidden = true;
  $("no-moves").hidden = true;
  $("nim-sum").hidden = true;
  $("queen").hidden = true;
  $("rules-text").hidden = true;
  $("mex-line").hidden = true;
  $("outcome").textContent = "";
  $("value").textContent = "";
  $("outcome-words").textContent = "";
  $("value-line").hidden = false;
  $("compound-number-line").hidden = true;
  if (!state.game) return;
  const fields = { game: state.game, position: state.position };
  showRules(state.game, step);
  if (isEmptyPosition(state.game, state.position)) return showEmptyAnswer(state);
  if (state.compound !== "sum") return showCompoundAnswer(state, fields, step);
  let answer;
  let listed = !state.misere;
  try {
    answer = await api("/api/answer", state.misere ? { ...fields, misere: "1" } : fields, step);
  } catch (error) {
    // Too many moves to list (a huge heap): the value still comes, and the reason.
    if (!tooManyToList(error)) throw error;
    answer = await api("/api/value", fields, step);
    answer.moves = [];
    listed = false;
    $("no-moves").textContent = t("no-moves", error.message);
    $("no-moves").hidden = false;
  }
  $("outcome").textContent = answer.outcome;
  $("value").textContent = valueText(answer);
  verdict.hidden = false;
  $("outcome-words").textContent = t((answer.misere ? "misere-words-" : "words-") + answer.outcome) || "";
  if (answer.misere) {
    $("no-moves").textContent = t("misere-no-options", answer.method || "");
    $("no-moves").hidden = false;
  }
  for (const move of answer.moves) {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.className = "winning-move";
    const to = moveTo(answer, move);
    const after = fieldsAfter(state.game, to);
    link.textContent = shownText(positionText(to));
    link.href = addressFor(after.game, after.position);
    link.title = t("answer-title");
    const explain = document.createElement("span");
    explain.className = "explain";
    explain.textContent = move.explain;
    item.append(link, explain);
    $("moves").append(item);
  }
  if (!answer.misere) showNimSum(state);
  showQueen(state, answer.misere);
  if (answer.error) throw new ApiError(answer.error.message, answer.error.kind);
  if (listed) await showAnswerOptions(state, 0, step);
}

// The empty position: no move, so a P-position of normal play (value 0, in every compound too)
// and an N-position of misère play.
function showEmptyAnswer(state) {
  const misere = state.misere && state.compound === "sum";
  $("outcome").textContent = misere ? "N" : "P";
  $("value").textContent = misere ? "—" : "0";
  document.querySelector(".verdict").hidden = false;
  $("outcome-words").textContent = t(misere ? "empty-words-misere" : "empty-words");
}

// A compound's answer: its outcome, the number that decides it, its winning moves (one move in
// each component moved) and every move judged.
async function showCompoundAnswer(state, fields, step) {
  const answer = await api("/api/answer", { ...fields, compound: state.compound }, step);
  $("outcome").textContent = answer.outcome;
  $("value-line").hidden = true;
  $("compound-number-label").textContent = t("number-" + state.compound);
  const [number, each] = compoundNumber(answer);
  $("compound-number").textContent = number;
  $("compound-each").textContent = each;
  $("compound-number-line").hidden = false;
  document.querySelector(".verdict").hidden = false;
  $("outcome-words").textContent = t("compound-words-" + answer.outcome) || "";
  for (const move of answer.moves) {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.className = "winning-move";
    const after = fieldsAfter(state.game, move.to);
    link.textContent = shownText(positionText(move.to));
    link.href = addressFor(after.game, after.position);
    link.title = t("answer-title");
    link.dataset.move = move.move;
    const explain = document.createElement("span");
    explain.className = "explain";
    explain.textContent = move.explain;
    item.append(link, explain);
    $("moves").append(item);
  }
  await showAnswerOptions(state, 0, step);
}

// The why of one component's value: the mex of its options' values, when all of them are on
// the page (a single game of one component, normal play, the sum).
function showMex(state, options) {
  $("mex-line").hidden = true;
  const words = state.position.trim().split(/\s+/);
  if (state.compound !== "sum" || isSum(state.game, state.position) || words.length !== 1 || !words[0]) return;
  if (options.offset !== 0 || options.options.length !== options.options_total) return;
  const values = options.options.map((option) => option.value);
  if (!values.every((value) => typeof value === "string" && /^\d+$/.test(value))) return;
  const seen = [...new Set(values.map((value) => BigInt(value)))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  let mex = 0n;
  while (seen.includes(mex)) mex += 1n;
  $("mex-line").textContent = t("mex-line", words[0], seen.join(", "), mex.toString());
  $("mex-line").hidden = false;
}

// Whether an error of the API says the moves are too many to list (a huge heap): the answer
// stands, with the reason beside it instead of an error.
function tooManyToList(error) {
  return error instanceof ApiError && (error.kind === "unsupported" || error.kind === "too_many_moves");
}

async function showAnswerOptions(state, offset, step) {
  const params = { game: state.game, position: state.position, offset, count: PAGE };
  if (state.compound !== "sum") params.compound = state.compound;
  let options;
  try {
    options = compoundOptions(await api("/api/options", params, step));
  } catch (error) {
    if (!tooManyToList(error)) throw error;
    $("no-moves").textContent = t("no-moves", error.message);
    $("no-moves").hidden = false;
    return;
  }
  $("answer-options-heading").hidden = options.options_total === 0;
  showMex(state, options);
  showOptionsPage(options, $("answer-options"), $("answer-pages"), state.game, state.judge, false, (next) =>
    run((turnStep) => showAnswerOptions(state, next, turnStep)),
  );
}

// Nim's heaps in binary, column by column, and their nim-sum (Bouton).
function showNimSum(state) {
  const typed = (state.game + " " + state.position).trim().split(/\s+/);
  if (typed[0] !== "nim" || typed.length < 3 || typed.length > 9 || !typed.slice(1).every((word) => /^\d{1,15}$/.test(word))) return;
  const heaps = typed.slice(1).map((word) => BigInt(word));
  const sum = heaps.reduce((a, b) => a ^ b, 0n);
  const width = Math.max(...heaps.map((heap) => heap.toString(2).length), sum.toString(2).length);
  const table = document.createElement("table");
  table.className = "nim-sum";
  const words = document.createElement("p");
  words.className = "note";
  words.textContent = t("nim-sum");
  const row = (label, number, total) => {
    const line = document.createElement("tr");
    if (total) line.className = "total";
    const head = document.createElement("th");
    head.scope = "row";
    head.textContent = label;
    const decimal = document.createElement("td");
    decimal.textContent = number.toString();
    const binary = document.createElement("td");
    binary.className = "binary";
    binary.textContent = number.toString(2).padStart(width, "0");
    line.append(head, decimal, binary);
    table.append(line);
  };
  heaps.forEach((heap, index) => row(`${t("heap")} ${index + 1}`, heap, false));
  row(t("nim-sum-row") + " ⊕", sum, true);
  clear($("nim-sum"));
  $("nim-sum").append(words, table);
  $("nim-sum").hidden = false;
}

// Wythoff's game as a queen on a board (x across, y up), the P-positions marked: the pairs
// (⌊kφ⌋, ⌊kφ²⌋) of Wythoff's theorem and their mirrors. Squares she can reach are links.
function showQueen(state, misere) {
  const typed = (state.game + " " + state.position).trim().split(/\s+/);
  const pair = typed.length === 2 && typed[0] === "wythoff" && typed[1].match(/^(\d{1,2}),(\d{1,2})$/);
  if (!pair) return;
  const [x, y] = [Number(pair[1]), Number(pair[2])];
  const side = Math.max(x, y, 7) + 1;
  if (side > 20) return;
  const phi = (1 + Math.sqrt(5)) / 2;
  const losing = new Set();
  for (let k = 0; Math.floor(k * phi) < side; k += 1) {
    const a = Math.floor(k * phi);
    losing.add(`${a},${a + k}`).add(`${a + k},${a}`);
  }
  const board = document.createElement("div");
  board.className = "queen-board";
  board.style.gridTemplateColumns = `repeat(${side}, 1fr)`;
  for (let row = side - 1; row >= 0; row -= 1) {
    for (let column = 0; column < side; column += 1) {
      const p = !misere && losing.has(`${column},${row}`);
      const reach =
        (row === y && column < x) || (column === x && row < y) || (x - column === y - row && column < x);
      const cell = document.createElement(reach ? "a" : "span");
      cell.className = "square" + ((row + column) % 2 ? " dark" : "") + (p ? " p" : "") + (reach ? " reach" : "");
      if (column === x && row === y) {
        cell.className += " queen";
        cell.textContent = "♛";
      } else if (p) {
        cell.textContent = "P";
      }
      if (reach) {
        cell.href = addressFor("wythoff", `${column},${row}`);
        cell.setAttribute("aria-label", t("queen-cell", column, row, p));
      }
      board.append(cell);
    }
  }
  const words = document.createElement("p");
  words.className = "note";
  words.textContent = t("queen-board", x, y);
  clear($("queen"));
  $("queen").append(words, board);
  $("queen").hidden = false;
}

// The rules of the game in one paragraph (`grundy rules GAME`); a sum has several games.
async function showRules(game, step) {
  if (isSum(game, "")) return;
  try {
    const rules = await api("/api/rules", { game: game.split(/\s+/)[0] }, step);
    const text = rules.about || rules.family.summary;
    $("rules-text").textContent = t("rules") + text;
    $("rules-text").hidden = false;
  } catch (error) {
    // The answer itself shows what is wrong with the game.
  }
}

// A picture of grundy plot. Its smallest text is 14 of its units: it is never drawn narrower
// than 11/14 of its own width (a phone scrolls it in its box), so no text is under 11 px.
// A click on it opens the answer of the heap or the cell under the pointer.
async function showPicture(image, params, step) {
  image.removeAttribute("src");
  image.onclick = null;
  const picture = await api("/api/plot", params, step);
  const svg = new DOMParser().parseFromString(await picture.text(), "image/svg+xml").documentElement;
  const width = Number(svg.getAttribute("width")) || 1000;
  image.style.minWidth = `${Math.ceil((width * 11) / 14)}px`;
  image.src = URL.createObjectURL(picture);
  const opens = pictureTarget(svg);
  image.classList.toggle("clickable", Boolean(opens));
  if (!opens) return;
  image.onclick = (event) => {
    const box = image.getBoundingClientRect();
    const scale = width / box.width;
    const position = opens((event.clientX - box.left) * scale, (event.clientY - box.top) * scale);
    if (position === null) return;
    const state = readState();
    Object.assign(state, { view: "answer", position, moves: [] });
    writeState(state, true);
    render();
  };
}

// What a point of the picture (in its own units) opens: a heap of a nim-sequence (its dots
// run from heap 0 at the left to the last heap at the right) or a cell of a two-heap table
// (its map: x to the right, y upwards), as the position field's text; null elsewhere.
function pictureTarget(svg) {
  const title = svg.querySelector("title")?.textContent || "";
  const heaps = title.match(/for n = 0\.\.(\d+)/);
  if (heaps) {
    const last = Number(heaps[1]);
    const xs = [...svg.querySelectorAll("circle:not([stroke])")].map((dot) => Number(dot.getAttribute("cx")));
    if (xs.length < 2) return null;
    const [left, right] = [Math.min(...xs), Math.max(...xs)];
    return (x) => {
      const heap = Math.round(((x - left) / (right - left)) * last);
      return heap >= 0 && heap <= last ? String(heap) : null;
    };
  }
  const sides = title.match(/x < (\d+), 0 <= y < (\d+)/);
  const map = svg.querySelector("image");
  if (!sides || !map) return null;
  const [columns, rows] = [Number(sides[1]), Number(sides[2])];
  const [left, top] = [Number(map.getAttribute("x")), Number(map.getAttribute("y"))];
  const [width, height] = [Number(map.getAttribute("width")), Number(map.getAttribute("height"))];
  return (x, y) => {
    const column = Math.floor(((x - left) / width) * columns);
    const row = rows - 1 - Math.floor(((y - top) / height) * rows);
    return column >= 0 && column < columns && row >= 0 && row < rows ? `${column},${row}` : null;
  };
}

async function showSequence(state, step) {
  $("p-positions").textContent = "";
  $("sequence-note").textContent = "";
  $("sequence-plot").removeAttribute("src");
  if (!state.game) return;
  const to = state.to || "100";
  const sequence = await api("/api/sequence", { game: state.game, to }, step);
  const zeros = [];
  sequence.values.forEach((value, heap) => {
    if (value === 0) zeros.push(heap);
  });
  const shown = zeros.slice(0, 200).join(", ") + (zeros.length > 200 ? ", …" : "");
  $("p-positions").textContent = t("p-positions", to, zeros.length ? shown : t("none-but-end"));
  $("sequence-note").textContent = t("picture-note");
  await showPicture($("sequence-plot"), { game: state.game, to }, step);
}

async function showTable(state, step) {
  $("table-plot").removeAttribute("src");
  if (!state.game) return;
  const params = { game: state.game };
  if (state.size) params.size = state.size;
  await showPicture($("table-plot"), params, step);
}

// `grundy guess`: the pattern, and the Python and C++ it emits when it found one.
async function showGuess(state, step) {
  $("guess-formula").textContent = "";
  $("guess-status").textContent = "";
  $("guess-code").hidden = true;
  if (!state.game) return;
  const game = state.game.split(/\s+/)[0];
  const { pattern } = await api("/api/guess", { game }, step);
  if (pattern.kind === "none") {
    $("guess-status").textContent = t("guess-none", (pattern.tried || []).join("; "));
    return;
  }
  $("guess-formula").textContent = pattern.formula;
  $("guess-status").textContent =
    pattern.status === "proved" ? t("guess-proved", pattern.proof) : t("guess-checked", pattern.fitted_to, pattern.checked_to);
  const [python, cpp] = await Promise.all(
    ["python", "cpp"].map((emit) => api("/api/guess", { game, emit }, step).then((code) => code.text())),
  );
  $("guess-python").textContent = python;
  $("guess-cpp").textContent = cpp;
  $("guess-code").hidden = false;
}

async function showCheck(state, step) {
  $("check-result").textContent = "";
  if (!state.game || !state.formula) return;
  const result = await api("/api/check", { game: state.game, formula: state.formula, to: state.to || "1000" }, step);
  $("check-result").textContent = result.agrees ? t("agrees", result.positions, result.all_positions) : result.report;
  $("check-result").className = result.agrees ? "agrees" : "disagrees";
}

// Play. The game is its start (game, position, who moves first) and the list of positions
// after each move (`moves=` in the address); whose turn it is follows from the list's length.
// Every position of the list was checked legal from the one before it (by `play`); a list
// from an address is checked again before it is played on.
let play = null;
// The games (start and moves) already checked, as keys: going back and forth needs no check.
const checkedGames = new Set();

function gameKey(game, start, first, compound, moves) {
  return JSON.stringify([game, start, first, compound, ...moves]);
}

function currentPosition() {
  return play.moves.length ? play.moves[play.moves.length - 1] : play.start;
}

// The API fields of the current position.
function currentFields() {
  const fields = play.moves.length ? fieldsOfText(play.sum, play.game, currentPosition()) : { game: play.game, position: play.start };
  if (play.compound !== "sum") fields.compound = play.compound;
  return fields;
}

// The current position as the command line writes it, game included.
function currentText() {
  if (!play.moves.length) return `${play.game} ${play.start}`.trim();
  return play.sum ? currentPosition() : `${play.game.split(/\s+/)[0]} ${currentPosition()}`;
}

// The board: the position, and for heaps of up to 40 counters each heap drawn.
function drawBoard() {
  clear($("board"));
  const text = currentText();
  const lines = [text];
  if (isEmptyPosition(play.game, currentPosition())) lines.push(t("empty-board"));
  const words = text.split(/\s+/);
  if (!play.sum && words.length > 1 && words.length <= 12) {
    words.slice(1).forEach((word, index) => {
      if (/^\d+$/.test(word) && Number(word) <= 40) lines.push(`${t("heap")} ${index + 1}: ${"●".repeat(Number(word))}`);
      else if (/^\d+,\d+$/.test(word)) lines.push(`${index + 1}: (${word})`);
    });
  }
  $("board").textContent = lines.join("\n");
}

function enginesTurn() {
  return (play.moves.length + (play.first === "engine" ? 1 : 0)) % 2 === 1;
}

function lockBoard(locked) {
  play.locked = locked;
  for (const element of document.querySelectorAll("#play-options button, #play-pages button, #move-form input, #move-form button, #undo, #redo")) {
    element.disabled = locked;
  }
  $("play-options").setAttribute("aria-busy", locked ? "true" : "false");
  if (!locked) updateUndoRedo();
}

function updateUndoRedo() {
  $("undo").disabled = !play || !personsMoves(play.moves.length);
  $("redo").disabled = !play || play.redo.length === 0;
}

// How many of the first `count` moves were the person's.
function personsMoves(count) {
  return play.first === "me" ? Math.ceil(count / 2) : Math.floor(count / 2);
}

function saveGame(push) {
  const state = readState();
  Object.assign(state, { view: "play", game: play.game, position: play.start, first: play.first, compound: play.compound, moves: play.moves });
  writeState(state, push);
  checkedGames.add(gameKey(play.game, play.start, play.first, play.compound, play.moves));
}

function drawHistory() {
  clear($("history"));
  play.moves.forEach((position, index) => {
    const engine = (index + (play.first === "engine" ? 0 : 1)) % 2 === 0;
    const item = document.createElement("li");
    item.dataset.position = position;
    item.className = engine ? "by-grundy" : "by-you";
    item.textContent = `${engine ? t("grundy") : t("you")}: ${position}`;
    $("history").append(item);
  });
}

async function startPlay(state, step) {
  clear($("history"));
  clear($("play-options"));
  $("play-pages").hidden = true;
  $("board").textContent = "";
  $("play-end").textContent = "";
  $("play-summary").textContent = "";
  $("play-hint").textContent = "";
  $("play-status").textContent = "";
  $("move-form").hidden = true;
  if (!state.game) {
    play = null;
    return;
  }
  const same =
    play && play.game === state.game && play.start === state.position && play.first === state.first && play.compound === state.compound;
  const redo = same ? play.redo : [];
  play = {
    game: state.game,
    start: state.position,
    sum: isSum(state.game, state.position),
    first: state.first,
    compound: state.compound,
    moves: [],
    redo,
    judge: state.judge,
    locked: false,
    over: false,
  };
  lockBoard(true);
  // The moves of the address, checked unless this page made them: all in one request (the
  // server's `grundy play --replay`), each legal move's position as the command line writes it.
  if (checkedGames.has(gameKey(state.game, state.position, state.first, state.compound, state.moves))) {
    play.moves = state.moves;
  } else if (state.moves.length) {
    const { events } = await api("/api/play", { ...currentFields(), replay: state.moves.join(MOVES_SEPARATOR) }, step);
    const moved = movesOf(events).slice(0, state.moves.length);
    play.moves = moved;
    if (moved.length < state.moves.length) {
      play.redo = [];
      saveGame(false);
      drawHistory();
      await settle(step, false);
      throw new ApiError(t("replayed-illegal", moved.length + 1, state.moves[moved.length]));
    }
    checkedGames.add(gameKey(play.game, play.start, play.first, play.compound, play.moves));
  }
  await settle(step, false);
}

// Lets the engine move if it is its turn, then shows the person's options (or the end).
async function settle(step, push) {
  lockBoard(true);
  if (enginesTurn() && !isEmptyPosition(play.game, currentPosition())) {
    const { events } = await api("/api/play", { ...currentFields(), first: "engine" }, step);
    const moved = movesOf(events);
    if (moved.length) {
      play.moves.push(moved[0]);
      play.redo = [];
      $("play-status").textContent = t("grundy-moved", moved[0]);
    }
    saveGame(push);
  }
  drawHistory();
  await showPlayOptions(0, step);
}

// The positions after each move a `play` turn reports: the `position` after a `you` or a
// `grundy` event.
function movesOf(events) {
  const positions = [];
  let moved = false;
  for (const event of events) {
    if (event.event === "you" || event.event === "grundy") moved = true;
    if (event.event === "position" && moved) {
      positions.push(positionText(event.position.game === "sum" ? event.position.parts : event.position.position));
      moved = false;
    }
  }
  return positions;
}

async function showPlayOptions(offset, step) {
  lockBoard(true);
  const fields = currentFields();
  if (isEmptyPosition(play.game, currentPosition())) {
    // The end, by the definition: nothing to ask.
    clear($("play-options"));
    $("play-pages").hidden = true;
    drawBoard();
    play.over = true;
    showEnd();
    $("move-form").hidden = true;
    $("play-hint").textContent = "";
    lockBoard(false);
    $("play-end").focus();
    return;
  }
  let answer;
  try {
    answer = compoundOptions(await api("/api/options", { ...fields, offset, count: PAGE }, step));
  } catch (error) {
    if (!tooManyToList(error)) throw error;
    // A huge heap: its moves are not listed, and `play` cannot read a move from it either.
    // The board, the value and why, and no box that could not play.
    clear($("play-options"));
    $("play-pages").hidden = true;
    drawBoard();
    $("move-form").hidden = true;
    const known = await api("/api/value", { game: fields.game, position: fields.position }, step);
    $("play-hint").textContent = `${t("no-moves", error.message)} (${known.outcome}, ${valueText(known)}) ${t("too-large-to-play")}`;
    lockBoard(false);
    return;
  }
  drawBoard();
  const total = answer.options_total;
  play.over = total === 0;
  showEnd();
  $("move-form").hidden = play.over;
  const number = answer.compound ? `${t("number-" + answer.compound)} ${compoundNumber(answer)[0]}: ${compoundNumber(answer)[1]}` : valueText(answer);
  $("play-hint").textContent = play.judge && !play.over ? t(answer.outcome === "P" ? "hint-P" : "hint-N") + ` (${answer.outcome}, ${number})` : "";
  showOptionsPage(answer, $("play-options"), $("play-pages"), play.game, play.judge, true, (next) =>
    run((pageStep) => showPlayOptions(next, pageStep)),
  );
  for (const button of $("play-options").querySelectorAll(".option")) {
    button.addEventListener("click", () => {
      if (!play.locked) run((moveStep) => playMove(button.dataset.position, moveStep));
    });
  }
  lockBoard(false);
  // Focus stays on the board: on the first move to make, or on the end.
  const first = $("play-options").querySelector(".option");
  if (play.over) $("play-end").focus();
  else if (first) first.focus();
  else $("board").focus();
}

// The end of the game, if it is over: who won, and in how many moves.
function showEnd() {
  $("play-end").textContent = play.over ? (enginesTurn() ? t("you-win") : t("you-lose")) : "";
  // grundy's last move ended the game: no "your move" above "grundy wins".
  if (play.over && !enginesTurn() && play.moves.length && $("play-status").textContent) {
    $("play-status").textContent = t("grundy-moved-last", play.moves[play.moves.length - 1]);
  }
  const count = play.moves.length;
  $("play-summary").textContent = play.over ? t("game-over", count, personsMoves(count), count - personsMoves(count)) : "";
}

// The person's move (the position it leads to, or a move typed as `3 -> 1`), then grundy's.
async function playMove(typed, step) {
  if (!play || play.over || play.locked || enginesTurn()) return;
  lockBoard(true);
  try {
    const { events } = await api("/api/play", { ...currentFields(), move: typed }, step);
    const illegal = events.find((event) => event.event === "illegal");
    if (illegal) throw new ApiError(illegal.text);
    const moved = movesOf(events);
    play.moves.push(...moved);
    play.redo = [];
    const engine = moved.length > 1 ? t("grundy-moved", moved[1]) : "";
    $("play-status").textContent = engine;
    saveGame(true);
    drawHistory();
    await showPlayOptions(0, step);
  } finally {
    if (play.locked && step === latestStep) lockBoard(false);
  }
}

// Undo: back to the person's previous turn; redo: forward again, the same moves.
async function undo(step) {
  if (!play || play.locked || !personsMoves(play.moves.length)) return;
  do {
    play.redo.push(play.moves.pop());
  } while (enginesTurn() && play.moves.length);
  saveGame(true);
  drawHistory();
  await showPlayOptions(0, step);
}

async function redo(step) {
  if (!play || play.locked || !play.redo.length) return;
  do {
    play.moves.push(play.redo.pop());
  } while (enginesTurn() && play.redo.length);
  saveGame(true);
  drawHistory();
  await settle(step, false);
}

async function saveScript(step) {
  const text = $("script").value;
  const described = await api("/api/script", {}, step, { method: "POST", body: text, headers: { "content-type": "text/plain" } });
  $("script-result").textContent = `${described.game}\n${described.about || described.family.summary}`;
  const state = readState();
  state.game = described.game;
  state.view = "answer";
  state.position = state.position || "10";
  fillForm(state);
  writeState(state, true);
  await render();
}

// Runs one step of the page under a new sequence number, showing its error, if any, in #error;
// a step that a later one overtook shows nothing.
async function run(work) {
  const step = newStep();
  showError("");
  try {
    await work(step);
  } catch (error) {
    if (error instanceof Stale || step !== latestStep) return;
    showError(error instanceof ApiError ? error.message : t("unreachable", error.message));
  }
}

async function render() {
  const state = readState();
  const other = new URLSearchParams(location.search);
  other.set("lang", LANGUAGE === "zh" ? "en" : "zh");
  $("language-link").href = "/?" + other.toString();
  fillForm(state);
  document.body.classList.toggle("unjudged", !state.judge);
  for (const view of VIEWS) $("view-" + view).hidden = view !== state.view;
  for (const button of document.querySelectorAll("#views button")) {
    const current = button.dataset.view === state.view;
    button.classList.toggle("current", current);
    if (current) button.setAttribute("aria-current", "page");
    else button.removeAttribute("aria-current");
  }
  $("position").closest("label").hidden = ["sequence", "table", "check", "guess", "script"].includes(state.view);
  $("judge").closest("p").hidden = !["answer", "play"].includes(state.view);
  $("compound-choice").hidden = !["answer", "play"].includes(state.view);
  showCompoundRule(state);
  // The game field's button draws, checks or plays in the other views.
  $("go").textContent = state.view === "answer" ? t("answer") : t("go");
  const show = {
    answer: showAnswer,
    sequence: showSequence,
    table: showTable,
    play: startPlay,
    check: showCheck,
    guess: showGuess,
    script: async () => {},
  }[state.view];
  await run((step) => show(state, step));
}

// Submitting any form: the fields into the address, then that state drawn.
function submitted(event) {
  event.preventDefault();
  const state = stateFromForm();
  writeState(state, true);
  render();
}

async function loadGameForms() {
  const rules = await api("/api/rules", {}, 0);
  for (const family of rules.games) {
    const option = document.createElement("option");
    option.value = family.syntax;
    option.label = family.summary;
    $("game-forms").append(option);
  }
  // Examples that need no file: one click each.
  $("examples").append(t("try"));
  for (const family of rules.games.filter((family) => !family.example.includes("&&")).slice(0, 8)) {
    const [, game, ...position] = family.example.split(" ");
    const link = document.createElement("a");
    link.href = addressFor(game, position.join(" "));
    link.textContent = [game, ...position].join(" ");
    $("examples").append(link, " ");
  }
}

translatePage();
for (const form of ["position-form", "sequence-form", "table-form", "play-form", "check-form"]) {
  $(form).addEventListener("submit", submitted);
}
$("move-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const typed = asciiWidth($("move").value).trim();
  $("move").value = "";
  if (typed && play && !play.locked) run((step) => playMove(typed, step));
});
$("undo").addEventListener("click", () => {
  if (play && !play.locked) run(undo);
});
$("redo").addEventListener("click", () => {
  if (play && !play.locked) run(redo);
});
$("misere").addEventListener("change", () => {
  const state = readState();
  state.misere = $("misere").checked;
  writeState(state, true);
  render();
});
$("compound").addEventListener("change", () => {
  const state = readState();
  state.compound = $("compound").value;
  if (state.compound !== "sum") state.misere = false;
  // Another compound is another game: its moves start again.
  state.moves = [];
  writeState(state, true);
  render();
});
$("judge").addEventListener("change", () => {
  const state = readState();
  state.judge = $("judge").checked;
  writeState(state, false);
  render();
});
$("script-go").addEventListener("click", () => run(saveScript));
for (const language of ["python", "cpp"]) {
  $("copy-" + language).addEventListener("click", async () => {
    const button = $("copy-" + language);
    try {
      await navigator.clipboard.writeText($("guess-" + language).textContent);
    } catch (error) {
      // No clipboard (an address that is not this machine's): select the code for Ctrl-C.
      getSelection().selectAllChildren($("guess-" + language));
      return;
    }
    button.textContent = t("copied");
    setTimeout(() => (button.textContent = t("copy")), 1500);
  });
}
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
loadGameForms().catch(() => {});
render();
