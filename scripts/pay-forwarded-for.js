// Preloaded into the hosted pages' process (`node -r scripts/pay-forwarded-for.js next start …`).
// Next.js keeps an X-Forwarded-For the client sent and adds the socket's address only when there
// is none, so a buyer talking to the pay port directly could pick the address the API's rate
// limits count it under. Like every proxy hop, append the address of the peer instead; the pay
// app forwards the list to the API, which walks it from the right past SVC_TRUSTED_PROXIES
// (docs/configuration.md › Rate limits). Runs before Next.js sees the request (Node's documented
// `http.server.request.start` diagnostics channel, published just before 'request' is emitted).
const dc = require('node:diagnostics_channel');

const peerOf = (socket) => {
  const address = socket && socket.remoteAddress;
  if (!address) return null;
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
};

dc.subscribe('http.server.request.start', ({ request, socket }) => {
  const peer = peerOf(socket);
  if (!peer) return;
  const prior = request.headers['x-forwarded-for'];
  const list = Array.isArray(prior) ? prior.join(', ') : prior;
  request.headers['x-forwarded-for'] = list && list.trim() ? `${list}, ${peer}` : peer;
});
