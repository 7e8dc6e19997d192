// Why: one WebSocket to a table, kept alive. A seat's token is offered as the subprotocol
// `pref.token.TOKEN` beside `pref`, so it stays out of the URL. It remembers the last version and epoch so a
// dropped connection resumes with `?since=&epoch=` (the server replays what was missed or sends
// a snapshot), retries with a growing delay, reports "connected / reconnecting" for the screen,
// and matches acks and rejections to the actions that asked for them. A snapshot comes only on
// connect, after `lagged`, after a stale action, or when asked for (a gap in the versions, an
// item the page could not follow); each is handed over with its cause, and items that arrive
// while one is awaited are dropped, since the snapshot covers them.

export class TableSocket {
  constructor(tableId, token, handlers) {
    this.tableId = tableId;
    this.token = token;
    this.h = handlers;
    this.version = null;
    this.epoch = null;
    this.pending = new Map();
    this.nextId = 1;
    this.retry = 0;
    this.closed = false;
    this.open();
  }

  url() {
    const q = new URLSearchParams();
    if (this.version !== null && this.epoch) {
      q.set('since', String(this.version));
      q.set('epoch', this.epoch);
    }
    const proto = location.protocol === 'https:' ? 'wss' : 'ws';
    return `${proto}://${location.host}/api/tables/${this.tableId}/ws?${q}`;
  }

  open() {
    this.h.status(this.version === null ? 'connecting' : 'reconnecting');
    // The seat token travels as a subprotocol, never in the URL (which logs write down).
    const protocols = this.token ? ['pref', `pref.token.${this.token}`] : ['pref'];
    const ws = new WebSocket(this.url(), protocols);
    this.ws = ws;
    ws.onopen = () => { this.retry = 0; this.opened = true; this.awaiting = 'connect'; this.h.status('online'); };
    ws.onmessage = (e) => this.receive(JSON.parse(e.data));
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      for (const p of this.pending.values()) p.reject(new Error('connection lost'));
      this.pending.clear();
      if (e.code === 4000) { this.h.seatFreed(); return; }
      // 4002: a message was too large for the socket's buffer (a server fault): reconnect
      // like after any drop, with the growing delay below.
      if (this.closed) return;
      // A token the table no longer knows is refused at the upgrade, before any open.
      if (this.token && !this.opened && this.retry >= 2 && this.h.tokenRefused) {
        this.h.tokenRefused();
        return;
      }
      this.h.status('reconnecting');
      const delay = Math.min(8000, 300 * 2 ** this.retry++);
      this.timer = setTimeout(() => this.open(), delay);
    };
  }

  receive(msg) {
    switch (msg.type) {
      case 'snapshot': {
        const cause = this.awaiting || 'unasked';
        this.awaiting = null;
        this.version = msg.version;
        this.epoch = msg.epoch;
        this.h.snapshot(msg, cause);
        break;
      }
      case 'event':
        if (this.version !== null && msg.version <= this.version) return;
        // A resumed connection's first items may come instead of a snapshot.
        if (this.awaiting === 'connect' && this.version !== null && msg.version === this.version + 1) this.awaiting = null;
        if (this.awaiting) return;
        if (this.version === null || msg.version !== this.version + 1) {
          this.resync('gap');
          return;
        }
        this.version = msg.version;
        this.h.event(msg);
        break;
      case 'ack':
      case 'hint':
      case 'rejected': {
        const p = this.pending.get(msg.id);
        this.pending.delete(msg.id);
        if (msg.reason === 'stale_version') this.awaiting = 'stale';
        if (p) (msg.type !== 'rejected' ? p.resolve(msg) : p.reject(Object.assign(new Error(msg.message), msg)));
        break;
      }
      case 'score_page':
        if (this.h.scorePage) this.h.scorePage(msg);
        break;
      case 'error':
        if (msg.code === 'lagged') this.awaiting = 'lagged';
        this.h.error(msg);
        break;
      default:
        break;
    }
  }

  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  /** Sends an action (or `next_deal`) and resolves on its ack, rejects on its refusal. */
  request(type, extra = {}) {
    const id = `m${this.nextId++}`;
    return new Promise((resolve, reject) => {
      if (!this.send({ type, id, version: this.version ?? 0, ...extra })) {
        reject(new Error('not connected'));
        return;
      }
      this.pending.set(id, { resolve, reject });
    });
  }

  act(action) { return this.request('action', { action }); }
  nextDeal() { return this.request('next_deal'); }
  /** Asks for a hint at a practice table; resolves with the `hint` answer. */
  hint() { return this.request('hint'); }
  chat(text) { return this.send({ type: 'chat', text }); }
  /** "I'm back": takes the seat off the autopilot at once (`back`). */
  back() { return this.send({ type: 'back' }); }
  /** Asks for the score log's finished deals just before deal `before` (a `score_page`). */
  scorePage(before) { return this.send({ type: 'score_page', before }); }
  /** Asks for a snapshot (`cause`: `gap` or `unfollowable`) and drops items until it comes. */
  resync(cause) {
    if (this.awaiting) return true;
    this.awaiting = cause;
    return this.send({ type: 'resync' });
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close();
  }
}
