import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it, vi } from "vitest";
import { runCli as runCliInProcess } from "../src/cli/run-cli.js";
import { runCli, startCli } from "./cli-helpers.js";
import { getJson, hashOf, tempDir, writeText } from "./helpers.js";

describe("labels-service CLI", () => {
  const tmp = tempDir();
  const dbPath = join(tmp.dir, "cli.sqlite");
  afterAll(() => tmp.cleanup());

  it("ingests, counts, validates and serves a label set", async () => {
    const file = writeText(join(tmp.dir, "labels.txt"), ["alpha", "beta", "alpha"]);
    const ingest = await runCli(["ingest", file, "--db", dbPath, "--label-set-id", "cli-set"]);
    expect(ingest.code).toBe(0);
    expect(ingest.stdout).toContain('as label set "cli-set" version 0: 2 added, 1 already present; 2 labels in total.');

    const count = await runCli(["count", "--db", dbPath]);
    expect(count).toMatchObject({ code: 0 });
    expect(count.stdout).toContain('2 labels (label set "cli-set", highest version 0)');

    const validate = await runCli(["validate", "--db", dbPath]);
    expect(validate.code).toBe(0);
    expect(validate.stdout).toContain("OK: 2 records");

    const serve = startCli(["serve", "--db", dbPath, "--port", "0"]);
    try {
      const url = await new Promise<string>((resolve, reject) => {
        serve.child.stdout!.on("data", (d: Buffer) => {
          const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(d.toString());
          if (m) resolve(m[1]);
        });
        serve.child.once("exit", () => reject(new Error("serve exited")));
      });
      expect((await getJson(`${url}/v1/heal/${hashOf("beta")}`)).body).toEqual({ status: "success", label: "beta" });
    } finally {
      serve.child.kill("SIGTERM");
    }
    const stopped = await serve.done;
    expect(stopped.code).toBe(0);
    expect(stopped.stdout).toContain("SIGTERM: shutting down");
  });

  it("a first ingest waits while another process briefly write-locks the new file, instead of failing 'database is locked'", async () => {
    // Switching a new file to WAL is a step for which SQLite does not wait on its own when another connection holds
    // the write lock (a second ingest starting, or a tool checking the file).
    const path = join(tmp.dir, "contended.sqlite");
    const reader = new Database(path);
    reader.exec("BEGIN IMMEDIATE");
    const release = setTimeout(() => {
      reader.exec("COMMIT");
      reader.close();
    }, 4000);
    try {
      const ingest = await runCli([
        "ingest",
        writeText(join(tmp.dir, "contended.txt"), ["gamma"]),
        "--db",
        path,
        "--label-set-id",
        "contended",
      ]);
      expect(ingest.stderr).toBe("");
      expect(ingest.code).toBe(0);
    } finally {
      clearTimeout(release);
      if (reader.open) reader.close();
    }
    expect((await runCli(["count", "--db", path])).stdout).toContain("1 labels");
  });

  it("validate finds a record whose labelhash is not keccak256 of its label, and a wrong count", async () => {
    const db = new Database(dbPath);
    db.prepare("UPDATE labels SET label = ? WHERE labelhash = ?").run(
      Buffer.from("tampered"),
      Buffer.from(hashOf("alpha").slice(2), "hex"),
    );
    db.prepare("UPDATE meta SET value = 5 WHERE key = 'records_count'").run();
    db.close();
    const validate = await runCli(["validate", "--db", dbPath]);
    expect(validate.code).toBe(1);
    expect(validate.stderr).toContain(`${hashOf("alpha")}: not keccak256 of its label`);
    expect(validate.stderr).toContain("stored count is 5 but the database holds 2 records");
  });

  it("reports a malformed input line with file and line, exit code 1", async () => {
    const bad = join(tmp.dir, "bad.csv");
    writeFileSync(bad, 'fine\n"broken"x\n');
    const run = await runCli(["ingest", bad, "--db", dbPath]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`Ingest failed: ${bad}: line 2: unexpected text after a closing quote`);
    expect(run.stderr).toContain("The database is unchanged");
  });

  it.each([
    [["ingest", "x.txt", "--label-set-id", "Not_Valid"], /label set id must be 1-50 characters/],
    [["ingest", "x.txt", "--format", "xml"], /--format must be one of: text, csv, ensrainbow, sql-dump/],
    [["serve", "--port", "99999"], /--port must be 0-65535/],
    [["serve", "--port", "abc"], /--port must be a number/],
    [["frobnicate"], /Unknown command "frobnicate"/],
    [["ingest"], /ingest takes exactly one input file/],
    [["count", "--nope"], /Unknown option '--nope'/],
  ])("rejects bad arguments %j with a clear message and exit code 2", async (args, message) => {
    // In-process: the same entry the bin calls, without paying a process start per case.
    const errors: string[] = [];
    const spy = vi
      .spyOn(console, "error")
      .mockImplementation((...parts: unknown[]) => void errors.push(parts.join(" ")));
    try {
      expect(await runCliInProcess(args)).toBe(2);
    } finally {
      spy.mockRestore();
    }
    expect(errors.join("\n")).toMatch(message);
    expect(errors.join("\n")).toContain("Usage: labels-service");
  });

  it.each([
    ["plain", (text: string) => Buffer.from(text)],
    ["gzipped", (text: string) => gzipSync(text)],
  ])("ingests %s text from standard input (`ingest -`), written in small pieces", async (kind, encode) => {
    const db = join(tmp.dir, `stdin-${kind}.sqlite`);
    const labels = Array.from({ length: 5_000 }, (_, i) => `piped-${i}`);
    const bytes = encode(`${labels.join("\n")}\n`);
    const ingest = startCli(["ingest", "-", "--db", db, "--label-set-id", "piped"], { stdin: "pipe" });
    // One byte first: the gzip check must wait for a second one rather than take a pipe's short read for text.
    for (let at = 0; at < bytes.length; at = at === 0 ? 1 : at + 4_096) {
      ingest.child.stdin!.write(bytes.subarray(at, at === 0 ? 1 : at + 4_096));
      await new Promise((r) => setTimeout(r, 1));
    }
    ingest.child.stdin!.end();
    const run = await ingest.done;
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("Ingested standard input into");
    expect(run.stdout).toContain(
      'as label set "piped" version 0: 5000 added, 0 already present; 5000 labels in total.',
    );
    expect((await runCli(["validate", "--db", db])).stdout).toContain("OK: 5000 records");
  });

  it("names standard input in a malformed-input error from a pipe", async () => {
    const ingest = startCli(
      ["ingest", "-", "--db", join(tmp.dir, "stdin-bad.sqlite"), "--format", "csv", "--label-set-id", "piped"],
      {
        stdin: "pipe",
      },
    );
    ingest.child.stdin!.end('fine\n"broken"x\n');
    const run = await ingest.done;
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("Ingest failed: standard input: line 2: unexpected text after a closing quote");
  });

  it("says so when the input file does not exist", async () => {
    const run = await runCli(["ingest", join(tmp.dir, "missing.txt"), "--db", dbPath]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("Input file not found");
  });

  it("purge removes the database files", async () => {
    const run = await runCli(["purge", "--db", dbPath]);
    expect(run.code).toBe(0);
    expect(existsSync(dbPath)).toBe(false);
    expect((await runCli(["count", "--db", dbPath])).stderr).toContain("No database at");
  });
});
