import { useState } from "../hooks";
import { api, get, type Redirect } from "../api";
import { useWorkspace } from "../session";
import { Loading, Outcome, Screen, SelectField, TextField, useLoad, useSubmit, TableHead, DeleteButton } from "../ui";

/** Old addresses of the site sent on to new ones (301 or 302), before any page is looked up. */
export function RedirectsScreen() {
  const { tenant, site, can } = useWorkspace();
  const load = useLoad(() => get<Redirect[]>(`/tenants/${tenant.id}/sites/${site.id}/redirects`), [tenant.id, site.id]);
  const action = useSubmit();
  const [fromPath, setFromPath] = useState("");
  const [toUrl, setToUrl] = useState("");
  const [status, setStatus] = useState("301");
  // Saving a path that has a redirect replaces it, status too: the form says what it replaces.
  const replaced = load.data?.find((redirect) => redirect.fromPath === fromPath);
  return (
    <Screen title="Redirects">
      <Outcome failure={action.failure} done={action.done} />
      {!load.data ? (
        <Loading failure={load.failure} />
      ) : load.data.length === 0 ? (
        <p>No redirects yet.</p>
      ) : (
        <table>
          <TableHead caption="Redirects" columns={["From", "To", "Status", ""]} />
          <tbody>
            {load.data.map((redirect) => (
              <tr>
                <td>
                  <code>{redirect.fromPath}</code>
                </td>
                <td>
                  <code>{redirect.toUrl}</code>
                </td>
                <td>{redirect.status}</td>
                <td class="actions">
                  {can("editor") ? (
                    <DeleteButton
                      name={`the redirect of ${redirect.fromPath}`}
                      question={`Delete the redirect of ${redirect.fromPath}? Visitors of ${redirect.fromPath} are then no longer sent to ${redirect.toUrl}.`}
                      path={`/tenants/${tenant.id}/redirects/${redirect.id}`}
                      done={`Deleted the redirect of ${redirect.fromPath}.`}
                      run={action.run}
                      onDone={load.reload}
                    />
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {can("editor") ? (
        <form
          class="panel"
          aria-labelledby="new-redirect"
          onInput={action.edited}
          onSubmit={async (e: Event) => {
            e.preventDefault();
            if (
              await action.run(
                () => api("PUT", `/tenants/${tenant.id}/redirects`, { siteId: site.id, fromPath, toUrl, status: Number(status) }),
                `Saved: ${fromPath} now sends readers to ${toUrl}.`,
              )
            ) {
              setFromPath("");
              setToUrl("");
              setStatus("301");
              load.reload();
            }
          }}
        >
          <h2 id="new-redirect">Add or replace a redirect</h2>
          <div class="row">
            <TextField
              label="From path"
              name="fromPath"
              value={fromPath}
              onValue={setFromPath}
              error={action.fieldError("fromPath")}
              hint={replaced ? `Replaces its redirect to ${replaced.toUrl} (${replaced.status})` : undefined}
              placeholder="/old-page"
              required
            />
            <TextField
              label="To"
              name="toUrl"
              value={toUrl}
              onValue={setToUrl}
              error={action.fieldError("toUrl")}
              placeholder="/new-page or https://…"
              required
            />
            <SelectField
              label="Status"
              name="status"
              value={status}
              onValue={setStatus}
              options={[
                ["301", "301 moved permanently"],
                ["302", "302 found (temporary)"],
              ]}
            />
          </div>
          <button class="primary" type="submit" disabled={action.busy}>
            Save redirect
          </button>
        </form>
      ) : null}
    </Screen>
  );
}
