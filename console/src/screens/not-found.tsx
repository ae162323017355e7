import { CONSOLE_BASE } from "../router";
import { Screen } from "../ui";

export function NotFoundScreen() {
  return (
    <Screen title="No such screen">
      <p>
        This address is not a screen of the console. <a href={`${CONSOLE_BASE}/`}>Go to the dashboard</a>.
      </p>
    </Screen>
  );
}
