import { PluginInputError } from "../../../core/plugins/registry.js";

/**
 * An upload the migration cannot read: the wrong format for the chosen `migration_type`, an unsafe or
 * oversized archive. The caller gets a 400 with this message and nothing is written.
 */
export class MigrationInputError extends PluginInputError {
  constructor(message: string) {
    super(message, 400);
  }
}

/**
 * The upload holds none of the files this migration reads. Apart from its message, it tells the caller
 * that a sole archive inside the upload (an export zipped again) is worth a second look.
 */
export class WrongTypeError extends MigrationInputError {}
