import { onNameWrapper } from "../../shared/name-wrapper-handlers";

onNameWrapper("subgraph/NameWrapper", () => "eth");
