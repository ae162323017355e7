import { useState } from "hono/jsx/dom";
import { api, get, type Member, type Role } from "../api";
import { useWorkspace } from "../session";
import { Loading, Outcome, Screen, SelectField, TextField, useLoad, useSubmit, TableHead } from "../ui";

const ROLES: [Role, string][] = [
  ["viewer", "Viewer: reads everything"],
  ["author", "Author: writes drafts"],
  ["editor", "Editor: publishes, edits any content"],
  ["owner", "Owner: sites, themes, ads, keys, members"],
];

/** Who works in the tenant and with which role; owners add members and change roles. */
export function MembersScreen() {
  const { tenant, can, userId } = useWorkspace();
  const load = useLoad(() => get<Member[]>(`/tenants/${tenant.id}/members`), [tenant.id]);
  const action = useSubmit();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("author");
  const setMember = async (body: { email: string; role: Role }, done: string) =>
    (await action.run(() => api("PUT", `/tenants/${tenant.id}/members`, body), done)) && load.reload();
  return (
    <Screen title="Members and roles">
      <Outcome failure={action.failure} done={action.done} />
      {!load.data ? (
        <Loading failure={load.failure} />
      ) : (
        <table>
          <TableHead columns={["Email", "Name", "Role"]} />
          <tbody>
            {load.data.map((member) => (
              <tr>
                <td>{member.email}</td>
                <td>{member.fullName ?? ""}</td>
                <td>
                  {can("owner") && member.userId !== userId ? (
                    <SelectField
                      label={`Role of ${member.email}`}
                      name="role"
                      value={member.role}
                      onValue={(v) => setMember({ email: member.email, role: v as Role }, `${member.email} is ${v} now.`)}
                      options={ROLES}
                    />
                  ) : (
                    member.role
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {can("owner") ? (
        <form
          class="panel"
          aria-labelledby="add-member"
          onSubmit={async (e: Event) => {
            e.preventDefault();
            if (await setMember({ email, role }, `Added ${email} as ${role}.`)) setEmail("");
          }}
        >
          <h2 id="add-member">Add a member</h2>
          <div class="row">
            <TextField
              label="Email"
              name="email"
              type="email"
              value={email}
              onValue={setEmail}
              error={action.fieldError("email")}
              hint="Of someone who has signed in once"
              required
            />
            <SelectField
              label="Role"
              name="role"
              value={role}
              onValue={(v) => setRole(v as Role)}
              options={ROLES}
              error={action.fieldError("role")}
            />
          </div>
          <button class="primary" type="submit" disabled={action.busy}>
            Add member
          </button>
        </form>
      ) : null}
    </Screen>
  );
}
