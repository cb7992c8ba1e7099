// The table display's page: follows the game through its event stream, lets a player tap a
// counter, play a move, seal and reveal their secrets. Plain script, no build step, no library.
"use strict";
(function () {
  const body = document.body;
  const say = (key, values) => {
    let text = body.dataset["say" + key.split("-").map((w) => w[0].toUpperCase() + w.slice(1)).join("")] || key;
    for (const [k, v] of Object.entries(values || {})) text = text.replace("{" + k + "}", v);
    return text;
  };
  const stored = localStorage.getItem("referee-lang");
  const params = new URLSearchParams(location.search);
  if (!params.get("lang") && stored && stored !== body.dataset.lang) {
    params.set("lang", stored);
    location.replace("?" + params.toString());
    return;
  }
  const lang = body.dataset.lang;
  const query = "lang=" + encodeURIComponent(lang);
  let hash = body.dataset.hash;
  let spoken = Number(localStorage.getItem("referee-spoken") || "0");
  const banner = document.getElementById("banner");
  const result = document.getElementById("result");
  const speak = document.getElementById("speak");
  speak.checked = localStorage.getItem("referee-speak") === "1";
  speak.addEventListener("change", () => localStorage.setItem("referee-speak", speak.checked ? "1" : "0"));
  for (const link of document.querySelectorAll("nav a[data-lang]")) {
    link.addEventListener("click", () => localStorage.setItem("referee-lang", link.dataset.lang));
  }

  function show(snapshot) {
    hash = snapshot.hash;
    body.dataset.hash = hash;
    for (const [key, html] of Object.entries(snapshot.html)) {
      const element = document.getElementById(key);
      if (!element) continue;
      element.innerHTML = html;
      element.parentElement.hidden = html === "";
    }
    const announce = snapshot.announce;
    if (announce && announce.seq > spoken) {
      if (speak.checked && "speechSynthesis" in window && spoken > 0) {
        const utterance = new SpeechSynthesisUtterance(announce.text);
        utterance.lang = { en: "en-GB", fr: "fr-FR", it: "it-IT" }[lang] || lang;
        window.speechSynthesis.speak(utterance);
      }
      spoken = announce.seq;
      localStorage.setItem("referee-spoken", String(spoken));
    }
    body.dataset.version = String(snapshot.version);
  }

  function connect() {
    const stream = new EventSource("events?" + query);
    stream.addEventListener("state", (event) => {
      banner.hidden = true;
      const snapshot = JSON.parse(event.data);
      // the first event repeats what the page was built with: nothing to redraw
      if (String(snapshot.version) === body.dataset.version && snapshot.hash === hash) return;
      show(snapshot);
    });
    stream.addEventListener("problem", (event) => {
      banner.textContent = JSON.parse(event.data).line;
      banner.hidden = false;
    });
    stream.addEventListener("error", () => {
      banner.textContent = say("reconnecting");
      banner.hidden = false;
    });
  }

  async function post(path, data) {
    if (result) result.textContent = say("sending");
    try {
      const response = await fetch(path + "?" + query, {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(data),
      });
      const answer = await response.json();
      if (result) {
        result.textContent = answer.line || (answer.ok ? say("played") : "");
        result.className = answer.ok ? "ok" : "refused";
      }
      if (answer.state) show(answer.state);
      return answer;
    } catch (error) {
      if (result) { result.textContent = say("failed"); result.className = "refused"; }
      return null;
    }
  }

  async function tapped(cell) {
    const moves = document.getElementById("moves");
    if (!moves) return;
    const response = await fetch("legal?cell=" + encodeURIComponent(cell) + "&" + query);
    const answer = await response.json();
    moves.innerHTML = "";
    const head = document.createElement("p");
    head.textContent = say(answer.moves.length ? "moves-of" : "no-moves", { cell: cell });
    moves.appendChild(head);
    for (const move of answer.moves) {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = move.said;
      button.dataset.action = move.action;
      moves.appendChild(button);
    }
  }

  document.addEventListener("click", (event) => {
    const target = event.target.closest("[data-action], [data-reveal], [data-cell]");
    if (!target) return;
    if (target.dataset.action) post("move", { action: target.dataset.action, hash: hash });
    else if (target.dataset.reveal) post("reveal", { label: target.dataset.reveal });
    else if (target.dataset.cell && document.getElementById("moves")) tapped(target.dataset.cell);
  });
  document.addEventListener("submit", (event) => {
    const form = event.target;
    event.preventDefault();
    if (form.id === "type-form") post("move", { action: form.elements.action.value, hash: hash });
    if (form.id === "seal-form") {
      post("seal", { label: form.elements.label.value, secret: form.elements.secret.value }).then((answer) => {
        if (answer && answer.ok) form.reset();
      });
    }
  });
  connect();
})();
