import { useRef } from "hono/jsx/dom";
import { useState } from "../hooks";
import { api, get, type Invitation, type Member, type Role } from "../api";
import { useWorkspace } from "../session";
import { DeleteButton, Loading, Outcome, Screen, SelectField, TableHead, TextField, useLoad, useSubmit, When } from "../ui";

const ROLES: [Role, string][] = [
  ["viewer", "Viewer: reads everything"],
  ["author", "Author: writes drafts"],
  ["editor", "Editor: publishes, edits any content"],
  ["owner", "Owner: sites, themes, ads, keys, members"],
];

/** The roles by name alone, for the list's narrow column; the invitation's form says what each may do. */
const ROLE_NAMES: [Role, string][] = ROLES.map(([role]) => [role, role[0]!.toUpperCase() + role.slice(1)]);

/** What people call a member: their name, else their address. */
/** The name a person gave; an email address the identity provider put in its place is none (as for bylines). */
const givenName = (person: { fullName?: string | null } | undefined) => (person?.fullName && !person.fullName.includes("@") ? person.fullName : null);
const nameOf = (member: Pick<Member, "email" | "fullName">) => givenName(member) ?? member.email;

/**
 * A member's role, changed by its button once another is chosen: a keyboard's arrows step through
 * the choices, and each step would otherwise grant that role.
 */
function RoleChoice(props: { member: Member; busy: boolean; onChange: (to: Role) => Promise<unknown> }) {
  const [chosen, setChosen] = useState<Role>(props.member.role);
  const box = useRef<HTMLDivElement>(null);
  const name = nameOf(props.member);
  const label = ROLE_NAMES.find(([role]) => role === chosen)?.[1] ?? chosen;
  return (
    <div class="role-choice" ref={box}>
      <SelectField label={`Role of ${name}`} name="role" value={chosen} onValue={(v) => setChosen(v as Role)} options={ROLE_NAMES} />
      {chosen !== props.member.role ? (
        <button
          type="button"
          disabled={props.busy}
          aria-label={`Make ${name} ${label}`}
          onClick={async () => {
            await props.onChange(chosen);
            // The button goes once the role is saved: the focus stays with the member's role.
            box.current?.querySelector("select")?.focus();
          }}
        >
          Change
        </button>
      ) : null}
    </div>
  );
}

/** Who works in the tenant and with which role; owners invite people by email, change roles and remove members. */
export function MembersScreen() {
  const { tenant, can, userId } = useWorkspace();
  const owner = can("owner");
  const load = useLoad(
    async () => ({
      members: await get<Member[]>(`/tenants/${tenant.id}/members`),
      invitations: owner ? await get<Invitation[]>(`/tenants/${tenant.id}/invitations`) : [],
    }),
    [tenant.id],
  );
  const action = useSubmit();
  const invitation = useSubmit();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("author");
  const changeRole = async (member: Member, to: Role) =>
    (await action.run(() => api("PUT", `/tenants/${tenant.id}/members`, { email: member.email, role: to }), `${nameOf(member)} is ${to} now.`)) &&
    load.reload();
  return (
    <Screen title="Members and roles">
      <Outcome failure={action.failure} done={action.done} />
      {!load.data ? (
        <Loading failure={load.failure} />
      ) : (
        <table class="members">
          <TableHead caption="Members" columns={owner ? ["Name", "Email", "Role", ""] : ["Name", "Email", "Role"]} />
          <tbody>
            {load.data.members.map((member) => (
              // Keyed: after a removal the rows below move up, and each role choice must stay with its member.
              <tr key={member.userId}>
                <td>{givenName(member) ?? <span class="meta">no name yet</span>}</td>
                <td>{member.email}</td>
                <td>
                  {owner && member.userId !== userId ? (
                    <RoleChoice member={member} busy={action.busy} onChange={(to) => changeRole(member, to)} />
                  ) : (
                    member.role
                  )}
                </td>
                {owner ? (
                  <td>
                    {member.userId !== userId ? (
                      <DeleteButton
                        label="Remove"
                        name={nameOf(member)}
                        question={`Remove ${nameOf(member)} (${member.email}) from ${tenant.name}? They lose access at once; invite them again to undo.`}
                        path={`/tenants/${tenant.id}/members/${member.userId}`}
                        done={`${nameOf(member)} is no longer a member.`}
                        run={action.run}
                        onDone={load.reload}
                      />
                    ) : (
                      <small>you</small>
                    )}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <YourName onRenamed={load.reload} />
      {owner ? (
        <section class="panel" aria-labelledby="invitations">
          <h2 id="invitations">Invitations</h2>
          {load.data?.invitations.length ? (
            <table class="invitations">
              <TableHead caption="Invitations" columns={["Email", "Role", "Expires", ""]} />
              <tbody>
                {load.data.invitations.map((invited) => (
                  <tr>
                    <td>{invited.email}</td>
                    <td>{invited.role}</td>
                    <td>
                      {invited.expired ? "Expired " : "Pending, expires "}
                      <When iso={invited.expiresAt} />
                    </td>
                    <td>
                      <DeleteButton
                        label="Withdraw"
                        name={`the invitation of ${invited.email}`}
                        question={`Withdraw the invitation of ${invited.email}? Signing in with that address will no longer make them a member.`}
                        path={`/tenants/${tenant.id}/invitations/${invited.id}`}
                        done={`The invitation of ${invited.email} is withdrawn.`}
                        run={action.run}
                        onDone={load.reload}
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p>No pending invitations.</p>
          )}
          <form
            onInput={invitation.edited}
            aria-labelledby="invite"
            onSubmit={async (e: Event) => {
              e.preventDefault();
              const address = email.trim();
              const earlier = load.data?.invitations.find((invited) => invited.email === address.toLowerCase() && !invited.expired);
              // The console sends no mail: the owner tells the person, with the address to sign in at.
              const invited =
                `${address} is invited as ${role} for 7 days${earlier ? ` (this replaces their invitation as ${earlier.role})` : ""}: ` +
                `they join when they first sign in with this address, at ${location.origin}/admin. No email is sent: tell them yourself.`;
              if (!(await invitation.run(() => api<Invitation>("POST", `/tenants/${tenant.id}/invitations`, { email, role }), invited))) return;
              setEmail("");
              load.reload();
            }}
          >
            <h3 id="invite">Invite someone</h3>
            <Outcome failure={invitation.failure} done={invitation.done} />
            <div class="row">
              <TextField
                label="Email"
                name="email"
                type="email"
                value={email}
                onValue={setEmail}
                error={invitation.fieldError("email")}
                hint="They need no account yet: signing in with this address within 7 days makes them a member"
                required
              />
              <SelectField
                label="Role"
                name="role"
                value={role}
                onValue={(v) => setRole(v as Role)}
                options={ROLES}
                error={invitation.fieldError("role")}
              />
            </div>
            <button class="primary" type="submit" disabled={invitation.busy}>
              Invite
            </button>
          </form>
        </section>
      ) : null}
    </Screen>
  );
}

interface Profile {
  userId: number;
  email: string;
  fullName: string | null;
}

/** The signed-in member's own name: what the bylines of their contents show (an address never is). */
function YourName(props: { onRenamed: () => void }) {
  const profile = useLoad(() => get<Profile>("/me"), []);
  const rename = useSubmit();
  const [name, setName] = useState<string>();
  const known = givenName(profile.data) ?? "";
  const shown = name ?? known;
  return (
    <section class="panel" aria-labelledby="your-name">
      <h2 id="your-name">Your name</h2>
      {!profile.data ? (
        <Loading failure={profile.failure} />
      ) : (
        <form
          onInput={rename.edited}
          onSubmit={async (e: Event) => {
            e.preventDefault();
            const saved = await rename.run(
              () => api<Profile>("PATCH", "/me", { fullName: shown }),
              "Saved: your contents show this name as their author.",
            );
            if (!saved) return;
            // The hint follows the name now given.
            profile.reload();
            props.onRenamed();
          }}
        >
          <Outcome failure={rename.failure} done={rename.done} />
          <div class="row">
            <TextField
              label="Name shown as the author of your contents"
              name="fullName"
              value={shown}
              onValue={setName}
              error={rename.fieldError("fullName")}
              hint={
                known ? `Signed in as ${profile.data.email}` : `Signed in as ${profile.data.email}; until you give a name, your contents show none`
              }
              required
            />
          </div>
          <button class="primary" type="submit" disabled={rename.busy}>
            Save your name
          </button>
        </form>
      )}
    </section>
  );
}
