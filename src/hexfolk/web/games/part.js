// The base of a game's part of the table page (what a plug-in's `mount(shell)` returns): the
// shell's view, seat, table and elements read through, its act / undo / dialogs called
// through, and the part's own memo of what it last drew (`changed`). A part sets `frame`:
// {board, beside, side, cls, wrapCls, dock, tabs} (table_page.js ensureLayout), and may have
// onAct, onRefusal, onUndone, afterRedraw, renderPlayers, seatMark, close, tabBadges and
// decisionTab (docs/adding-a-game.md).
export class GamePart {
  constructor(shell) {
    this.shell = shell;
    this.sigs = {};
  }

  get app() { return this.shell.app; }
  get id() { return this.shell.id; }
  get table() { return this.shell.table; }
  get view() { return this.shell.view; }
  get seat() { return this.shell.seat; }
  get log() { return this.shell.log; }
  get geometry() { return this.shell.geometry; }
  get el() { return this.shell.el; }
  get modalEl() { return this.shell.modalEl; }
  get rematchBy() { return this.shell.rematchBy; }

  act(text) { this.shell.act(text); }
  send(msg) { this.shell.send(msg); }
  undo(steps) { this.shell.undo(steps); }
  seatName(i) { return this.shell.seatName(i); }
  myTurn() { return this.shell.myTurn(); }
  tick() { this.shell.tick(); }
  modal(title, body, opts) { this.shell.modal(title, body, opts); }
  choose(title, options) { this.shell.choose(title, options); }
  closeModal() { this.shell.closeModal(); }
  timedOut(i) { return this.shell.timedOut(i); }

  /** True when the inputs of a part of the page differ from the last time it was drawn. */
  changed(part, inputs) {
    const sig = JSON.stringify(inputs);
    if (this.sigs[part] === sig) return false;
    this.sigs[part] = sig;
    return true;
  }
}
