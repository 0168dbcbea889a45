// Ponder's Vite server reads the config of its root, this folder: the project's (../vite.config.ts says why).
export { default } from "../vite.config";
