// Why: the HTTP side of the protocol (create a table, seats, host actions) in one place,
// with the server's `{error, message}` answers turned into thrown errors.

import { saved } from './store.js';

export async function call(method, path, body, bearer) {
  const headers = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (bearer) headers.Authorization = `Bearer ${bearer}`;
  const res = await fetch(path, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await res.json().catch(() => null);
  if (!res.ok) {
    const err = new Error((data && data.message) || `HTTP ${res.status}`);
    err.status = res.status;
    throw err;
  }
  return data;
}

export const api = {
  presets: () => call('GET', '/api/presets'),
  create: (profile, spectatorChat, clock, extra = {}) =>
    call('POST', '/api/tables', { profile, spectator_chat: spectatorChat, ...(clock && clock !== 'off' ? { clock } : {}), ...extra }),
  pauseClock: (id, paused, host) => call('POST', `/api/tables/${id}/clock`, { paused }, host),
  summary: (id) => call('GET', `/api/tables/${id}`),
  claim: (id, name, seat, host, invite) => call('POST', `/api/tables/${id}/seats`, { name, seat, invite: invite || undefined }, host),
  leave: (id, token) => call('POST', `/api/tables/${id}/leave`, undefined, token),
  start: (id, host) => call('POST', `/api/tables/${id}/start`, undefined, host),
  end: (id, host) => call('POST', `/api/tables/${id}/end`, undefined, host),
  stop: (id, token, vote) => call('POST', `/api/tables/${id}/stop`, { vote }, token),
  rematch: (id, host) => call('POST', `/api/tables/${id}/rematch`, undefined, host),
  rematchSeat: (id, token) => call('POST', `/api/tables/${id}/rematch/seat`, undefined, token),
  bot: (id, seat, level, host) => call('POST', `/api/tables/${id}/seats/${seat}/bot`, { level }, host),
  inviteBot: (id, seat, name, host) => call('POST', `/api/tables/${id}/seats/${seat}/invite`, { name }, host),
  saveProfile: (name, profile) => call('POST', '/api/profiles', { name, profile }),
  profile: (id) => call('GET', `/api/profiles/${encodeURIComponent(id)}`),
  remove: (id, seat, host) => call('POST', `/api/tables/${id}/seats/${seat}/remove`, undefined, host),
};

/** The links a host hands out: the invite carries the key that lets a visitor sit down
 * (in its fragment, which is never sent to a server); the watch link only watches. */
export function links(id) {
  const base = `${location.origin}/t/${id}`;
  const key = saved.invite(id);
  return { invite: key ? `${base}#invite=${key}` : base, watch: `${base}?watch` };
}
