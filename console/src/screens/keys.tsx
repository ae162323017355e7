import { useState } from "../hooks";
import { api, get, type TenantKey } from "../api";
import { useWorkspace } from "../session";
import { CheckField, CopyButton, formatDate, Loading, Outcome, Screen, TextField, useLoad, useSubmit, TableHead, DeleteButton } from "../ui";

const SCOPES = ["content:read", "content:write"] as const;

/** System management → API keys: the tenant's keys for the content API; a new key is shown once. */
export function KeysScreen() {
  const { tenant, sites } = useWorkspace();
  const load = useLoad(() => get<TenantKey[]>(`/tenants/${tenant.id}/keys`), [tenant.id]);
  const action = useSubmit();
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<string[]>(["content:read"]);
  const [siteIds, setSiteIds] = useState<number[]>([]);
  const [issued, setIssued] = useState<string | null>(null);
  return (
    <Screen title="API keys">
      <Outcome failure={action.failure} done={action.done} />
      {issued ? (
        <div class="alert ok" role="alert">
          <p>
            <strong>Copy the key now: it is shown this once.</strong> Send it as <code>X-API-Key</code>.
          </p>
          <p>
            <code class="secret" aria-label="The new key">
              {issued}
            </code>{" "}
            <CopyButton text={issued} label="Copy the key" />{" "}
            <button type="button" onClick={() => setIssued(null)}>
              I have copied it
            </button>
          </p>
        </div>
      ) : null}
      <section class="panel" aria-labelledby="site-ids">
        <h2 id="site-ids">Your sites' ids</h2>
        <p>
          Every call of the content API names its site: <code>siteId</code> in the address (or in the body of a write), with the key as{" "}
          <code>X-API-Key</code>.
        </p>
        <table>
          <TableHead caption="Sites and their siteId" columns={["Site", "siteId", "A first call"]} />
          <tbody>
            {sites.map((site) => {
              const first = `${location.origin}/api/mcp/contents?siteId=${site.id}`;
              return (
                <tr>
                  <td>{site.name}</td>
                  <td>
                    <code>{site.id}</code> <CopyButton text={String(site.id)} label="Copy" name={`the id of ${site.name}`} />
                  </td>
                  <td>
                    <code class="secret">GET {first}</code> <CopyButton text={first} label="Copy the address" name={`of ${site.name}'s first call`} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </section>
      {!load.data ? (
        <Loading failure={load.failure} />
      ) : (
        <table class="keys">
          <TableHead caption="API keys" columns={["Name", "Key", "Scopes", "Sites", "Created", "State"]} />
          <tbody>
            {load.data.map((key) => (
              <tr>
                <td>{key.name}</td>
                <td>
                  <code>{key.maskedToken}</code>
                </td>
                <td class="scopes">{key.scopes.length ? key.scopes.join(", ") : "All scopes (read and write)"}</td>
                <td class="sites">
                  {key.siteIds
                    ? key.siteIds.map((id) => `${sites.find((s) => s.id === id)?.name ?? "A site"} (siteId ${id})`).join(", ")
                    : "All sites, today's and future ones"}
                </td>
                <td class="created">{formatDate(key.createdAt)}</td>
                <td>
                  {key.isActive ? (
                    <DeleteButton
                      label="Revoke"
                      name={key.name}
                      question={`Revoke the key ${key.name}? Calls with it fail from the next request.`}
                      path={`/tenants/${tenant.id}/keys/${key.id}`}
                      done={`Revoked ${key.name}.`}
                      run={action.run}
                      onDone={load.reload}
                    />
                  ) : (
                    "revoked"
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form
        class="panel"
        aria-labelledby="new-key"
        onInput={action.edited}
        onSubmit={async (e: Event) => {
          e.preventDefault();
          const created = await action.run(
            () =>
              api<TenantKey & { token: string }>("POST", `/tenants/${tenant.id}/keys`, { name, scopes, siteIds: siteIds.length ? siteIds : null }),
            `Created ${name}.`,
          );
          if (created) {
            setIssued(created.token);
            setName("");
            setScopes(["content:read"]);
            setSiteIds([]);
            load.reload();
          }
        }}
      >
        <h2 id="new-key">Create a key</h2>
        <TextField label="Name" name="name" value={name} onValue={setName} error={action.fieldError("name")} hint="Who or what uses it" required />
        <fieldset class="group">
          <legend>Scopes</legend>
          {SCOPES.map((scope) => (
            <CheckField
              label={scope}
              checked={scopes.includes(scope)}
              onValue={(on) => setScopes(on ? [...scopes, scope] : scopes.filter((s) => s !== scope))}
            />
          ))}
        </fieldset>
        <fieldset class="group">
          <legend>Sites it may read (none chosen: all sites, today's and future ones)</legend>
          {sites.map((site) => (
            <CheckField
              label={`${site.name} (siteId ${site.id})`}
              checked={siteIds.includes(site.id)}
              onValue={(on) => setSiteIds(on ? [...siteIds, site.id] : siteIds.filter((s) => s !== site.id))}
            />
          ))}
        </fieldset>
        <button class="primary" type="submit" disabled={action.busy}>
          Create key
        </button>
      </form>
    </Screen>
  );
}
