// GET /healthz: the pay app's own liveness probe (runtime contract › Health: 200 with
// `{status: "ok"}`, no configuration revealed). It answers once this process serves requests and
// does not call the API: a pay app that cannot reach the API still serves its error pages, and an
// orchestrator that restarted it for the API's outage would not help. Probe the API's /healthz for that.
export const dynamic = 'force-dynamic';

export function GET(): Response {
  return Response.json({ status: 'ok' }, { headers: { 'cache-control': 'no-store' } });
}
