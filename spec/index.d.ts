/** Absolute path of the bundled spec as JSON (dist/openapi.json). */
export declare const bundledSpecJsonPath: string;
/** Absolute path of the bundled spec as YAML (dist/openapi.yaml). */
export declare const bundledSpecYamlPath: string;
/** Absolute path of the server's copy of the bundled spec, without descriptions and examples (dist/openapi.server.json). */
export declare const serverSpecJsonPath: string;
