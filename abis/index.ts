export * from "./base-registrar";
export * from "./name-wrapper";
export * from "./registrar-controllers";
export * from "./registry";
export * from "./resolver";
export * from "./reverse-registrars";
export * from "./seaport";
export * from "./threedns";
