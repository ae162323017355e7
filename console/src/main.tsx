import { render } from "hono/jsx/dom";
import { App } from "./app";
import "./console.css";

render(<App />, document.getElementById("app")!);
