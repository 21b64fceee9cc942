/** Absolute path of the bundled spec as JSON (dist/openapi.json). */
export declare const bundledSpecJsonPath: string;
/** Absolute path of the bundled spec as YAML (dist/openapi.yaml). */
export declare const bundledSpecYamlPath: string;
