import { type PathFiller, pathFiller } from '../../internal/path.js';
import type { PathParam } from '../api/operation.js';
import { ParamsValidationError } from '../errors/params-validation-error.js';

/** Fills an operation's path template. */
export type PathBuilder = (params: Readonly<Record<string, unknown>> | undefined) => string;

/** Splits `template` once; a value that cannot fill its placeholder is a `ParamsValidationError`. */
export function compilePath(
  template: string,
  pathParams: readonly PathParam[],
  operation: string | null = null,
): PathBuilder {
  const fill: PathFiller = pathFiller(template, pathParams);
  return (params) => {
    const filled = fill(params);
    if (filled.problem !== null) {
      throw new ParamsValidationError({ [filled.problem.name]: [filled.problem.problem] }, operation);
    }
    return filled.path;
  };
}
