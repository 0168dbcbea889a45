import { managedNameOf } from "../../basenames/handlers/l2-registry";
import { onNameWrapper } from "../../shared/name-wrapper-handlers";

onNameWrapper("lineanames/NameWrapper", () => managedNameOf("lineanames"));
