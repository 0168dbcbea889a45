import { GraphQLError } from "graphql";

/** A problem with the query itself: reported to the client as a GraphQL error, never as a 5xx. */
export class SubgraphQueryError extends GraphQLError {
  constructor(message: string) {
    super(message);
    this.name = "SubgraphQueryError";
  }
}
