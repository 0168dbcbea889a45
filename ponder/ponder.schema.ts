// Ponder reads the schema from its root (this folder); the tables live at the project root, where tests import them.
export * from "../ponder.schema";
