import { render } from "hono/jsx/dom";
import { App } from "./app";
import { keepFocusInScreen } from "./ui";
import "./console.css";

render(<App />, document.getElementById("app")!);
keepFocusInScreen();
